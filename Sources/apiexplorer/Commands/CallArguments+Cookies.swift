import ArgumentParser
import DispatcherCore
import FoundationEssentials
import SystemSupport

extension CallArguments {
    /// The cookies of `-b FILE`, if given; a file that cannot be read or a bad line is a usage error.
    func readCookies() throws -> [Cookie] {
        guard let cookiesFile else { return [] }
        let data: Data
        do throws(FileReadError) {
            // A cookie jar of thousands of cookies is a few hundred KiB.
            data = try FileContents.contents(atPath: cookiesFile, limit: 16 << 20)
        } catch {
            Console.error("error: \(error)")
            throw ExitStatus.usage
        }
        do throws(CookieJar.FileError) {
            return try CookieJar.cookies(netscape: String(decoding: data, as: UTF8.self), at: Date())
        } catch {
            Console.error("error: \(cookiesFile):\(error.line): \(error.message)")
            throw ExitStatus.usage
        }
    }

    /// Writes the jar to `-c FILE`, atomically and readable by the owner only (it holds credentials).
    func writeCookies(_ cookies: [Cookie]) throws {
        guard let cookieJar else { return }
        do throws(SystemError) {
            try AtomicFile.write(Data(CookieJar.netscapeText(cookies).utf8), to: URL(fileURLWithPath: cookieJar), permissions: 0o600)
        } catch {
            Console.error("error: the cookies could not be written to \(cookieJar): \(error)")
            throw ExitCode(1)
        }
    }
}
