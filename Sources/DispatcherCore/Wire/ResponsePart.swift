import FoundationEssentials

/// A piece of a response as it arrives, for those who show a stream before it ends
/// (`RequestOptions.onResponsePart`): the head first, then the body's bytes in the order they came.
public enum ResponsePart: Sendable {
    /// The status and headers.
    case head(status: Int, headers: Headers)
    /// The next bytes of the body (decoded when the body was compressed).
    case body(Data)
}

/// Receives a response's parts as they arrive; its answer to the head says whether it wants the
/// body's parts (copying a large ordinary body for nobody would double its memory). Called on the
/// transport's thread, in order, so it must return quickly. A followed redirect starts over with a
/// new head.
public typealias ResponsePartObserver = @Sendable (ResponsePart) -> Bool
