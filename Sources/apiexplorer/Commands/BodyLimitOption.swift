import ArgumentParser
import Catalog

/// `--max-body-size`, shared by the commands that receive responses: replaces every environment's
/// `maxBodySize` (default 256 MiB).
struct BodyLimitOption: ParsableArguments {
    @Option(
        name: .customLong("max-body-size"),
        help: ArgumentHelp(
            "The largest response body kept, in bytes or with a unit (512KB, 10MiB); larger ones end as bodyTooLarge. "
                + "Default: each environment's maxBodySize, else 256MiB.",
            valueName: "SIZE"),
        transform: { text in
            guard let size = CatalogSet.byteCount(text) else { throw ValidationError("--max-body-size wants a size such as 1048576, 512KB or 10MiB, not '\(text)'.") }
            return size
        })
    var maximumBodySize: Int?
}
