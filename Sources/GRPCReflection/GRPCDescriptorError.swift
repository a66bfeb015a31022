/// Descriptors that could not be had: from reflection, a protoset, `.proto` files, or a symbol
/// that is not in them. The message says what to do.
package struct GRPCDescriptorError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// The server answers neither reflection API.
        case noReflection
        /// The reflection conversation failed (connection, status, a server's error answer).
        case reflectionFailed
        /// A file that is not a serialized FileDescriptorSet, or is unreadable or too large.
        case notAProtoset
        /// Files that import files the set lacks.
        case incomplete
        /// `protoc` is not installed.
        case protocMissing
        /// `protoc` refused the files.
        case protocFailed
        /// A name that is in none of the descriptors.
        case symbolNotFound
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
