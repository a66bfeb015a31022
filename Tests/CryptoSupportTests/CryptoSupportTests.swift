import CryptoSupport
import Testing
import TestTraits

/// The system libcrypto through CryptoSupport: published test vectors, signatures in every JWS
/// algorithm both ways, keys through their JWK form, and certificates that chain.
@Suite(.offPool) struct CryptoSupportTests {
    @Test func hashesGiveTheirPublishedDigestsOfABC() {
        let expected: [HashFunction: String] = [
            .md5: "900150983cd24fb0d6963f7d28e17f72",
            .sha1: "a9993e364706816aba3e25717850c26c9cd0d89d",
            .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            .sha384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
            .sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            // FIPS 180-4's own initial values: not the first half of SHA-512's.
            .sha512_256: "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
        ]
        for function in HashFunction.allCases {
            #expect(function.hexHash("abc".utf8) == expected[function], "\(function)")
            #expect(function.hash([]).count == function.digestLength)
        }
    }

    @Test func hmacGivesRFC4231TestCaseTwo() {
        let code = HashFunction.sha256.authenticationCode(for: "what do ya want for nothing?".utf8, key: "Jefe".utf8)
        #expect(code.hexadecimal == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func base64URLRoundTripsAndReadsPaddedStandardText() {
        for length in 0..<70 {
            // Every byte value occurs across the lengths, so every sextet is encoded somewhere.
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ length &* 37) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("a") == nil, "a lone sixth of a byte")
        #expect(Base64URL.decode("ab$c") == nil)
    }

    static let keys: [(SigningKey.Kind, [SignatureAlgorithm])] = [
        (.rsa(bits: 2048), [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]),
        (.ec(.p256), [.es256]), (.ec(.p384), [.es384]), (.ec(.p521), [.es512]),
        (.ed25519, [.edDSA]),
    ]

    @Test func everyAlgorithmSignsAndVerifiesAndRefusesATamperedMessage() throws {
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbm4ifQ".utf8)
        for (kind, algorithms) in Self.keys {
            let key = try SigningKey.generate(kind)
            let other = try SigningKey.generate(kind)
            for algorithm in algorithms {
                let signature = try key.signature(for: message, algorithm: algorithm)
                if let curve = [SignatureAlgorithm.es256: EllipticCurve.p256, .es384: .p384, .es512: .p521][algorithm] {
                    #expect(signature.count == 2 * curve.coordinateLength, "JWS: r and s side by side")
                }
                #expect(key.verifyingKey.isValidSignature(signature, for: message, algorithm: algorithm), "\(algorithm)")
                #expect(!key.verifyingKey.isValidSignature(signature, for: message + [0x20], algorithm: algorithm))
                #expect(!other.verifyingKey.isValidSignature(signature, for: message, algorithm: algorithm))
                for wrong in SignatureAlgorithm.allCases where !algorithms.contains(wrong) {
                    #expect(!key.verifyingKey.fits(wrong))
                    #expect(!key.verifyingKey.isValidSignature(signature, for: message, algorithm: wrong))
                }
            }
        }
    }

    @Test func aKeyReadBackFromItsJWKVerifiesWhatTheKeyIssued() throws {
        let message = Array("header.claims".utf8)
        for (kind, algorithms) in Self.keys {
            let key = try SigningKey.generate(kind)
            let jwk = Dictionary(uniqueKeysWithValues: key.publicJWK)
            func bytes(_ name: String) throws -> [UInt8] { try #require(jwk[name].flatMap { Base64URL.decode($0) }) }
            let read: VerifyingKey
            switch jwk["kty"] {
            case "RSA": read = try .rsa(modulus: try bytes("n"), exponent: try bytes("e"))
            case "EC": read = try .ec(curve: try #require(jwk["crv"].flatMap(EllipticCurve.init(rawValue:))), x: try bytes("x"), y: try bytes("y"))
            default: read = try .ed25519(try bytes("x"))
            }
            #expect(read.subjectPublicKeyInfo == key.verifyingKey.subjectPublicKeyInfo)
            #expect(try VerifyingKey(subjectPublicKeyInfo: read.subjectPublicKeyInfo).subjectPublicKeyInfo == read.subjectPublicKeyInfo)
            let signature = try key.signature(for: message, algorithm: algorithms[0])
            #expect(read.isValidSignature(signature, for: message, algorithm: algorithms[0]))
        }
        #expect(throws: CryptoError.self) { try VerifyingKey.ec(curve: .p256, x: [1, 2], y: [3]) }
    }

    @Test func rfc8037sEd25519ExampleVerifies() throws {
        // RFC 8037 Appendix A.4: the public key and the signature of "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".
        let key = try VerifyingKey.ed25519(try #require(Base64URL.decode("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")))
        let signature = try #require(Base64URL.decode("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"))
        let message = Array("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        #expect(key.isValidSignature(signature, for: message, algorithm: .edDSA))
    }

    @Test func aFixedScalarMakesTheSameKeyEachTime() throws {
        let scalar = [UInt8](repeating: 7, count: 32)
        let first = try SigningKey(curve: .p256, scalar: scalar)
        let second = try SigningKey(curve: .p256, scalar: scalar)
        #expect(first.verifyingKey.subjectPublicKeyInfo == second.verifyingKey.subjectPublicKeyInfo)
        #expect(first.pkcs8 == second.pkcs8 && !first.pkcs8.isEmpty)
        let signature = try first.signature(for: [1, 2, 3], algorithm: .es256)
        #expect(second.verifyingKey.isValidSignature(signature, for: [1, 2, 3], algorithm: .es256))
    }

    @Test func certificatesAreMadeAndWrittenAsPEM() throws {
        let authorityKey = try SigningKey.generate(.ec(.p256))
        let authority = try CertificateMaker(
            commonName: "test CA", subjectKey: authorityKey.verifyingKey, validity: (1_767_225_600, 2_398_377_600), isAuthority: true
        ).certificate(issuerKey: authorityKey)
        var server = CertificateMaker(
            commonName: "127.0.0.1", subjectKey: try SigningKey.generate(.ec(.p256)).verifyingKey, validity: (1_767_225_600, 1_769_817_600),
            isAuthority: false)
        server.dnsNames = ["localhost"]
        server.ipAddresses = [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]]
        let leaf = try server.certificate(issuerKey: authorityKey, issuer: authority)
        #expect(leaf.first == 0x30 && authority.first == 0x30, "DER sequences")
        // The leaf names its issuer and its addresses in DER.
        #expect(leaf.contains(subsequence: Array("test CA".utf8)))
        #expect(leaf.contains(subsequence: [0x87, 4, 127, 0, 0, 1]), "iPAddress 127.0.0.1")
        #expect(leaf.contains(subsequence: [0x82, 9] + Array("localhost".utf8)), "dNSName localhost")
        let pem = CertificateMaker.pem(authority)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n") && pem.hasSuffix("-----END CERTIFICATE-----\n"))
        #expect(pem.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(throws: CryptoError.self) { try server.certificate(issuerKey: authorityKey, issuer: [0x30, 0x00]) }
    }
}


extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
