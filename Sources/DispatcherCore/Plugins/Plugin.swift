/// Hooks that see every request and result (Moya's PluginType). All have do-nothing defaults.
///
/// Order, for each attempt of a request:
/// 1. the interceptor's `adapt`;
/// 2. `prepare` of every plugin, in the order given (each sees the previous one's output);
/// 3. `willSend` of every plugin, in order;
/// 4. the stub or the transport;
/// 5. the error filter maps the result;
/// 6. `didReceive` of every plugin, in order — exactly once for every `willSend`, also when the
///    request failed or was cancelled;
/// 7. `process` of every plugin, in order (each sees the previous one's output);
/// 8. the interceptor's `retry` decides whether another attempt follows.
///
/// Then, once per request: the inline error handler, the error-handler chain (which may resume the
/// request once, going back to step 1), the result handlers, and finally the caller.
///
/// `prepare` and `process` change their argument in place (Moya's return a new value): a request
/// or result handed back from each plugin would be copied once per plugin, on every request.
public protocol Plugin: Sendable {
    /// Changes the request before it is sent (add a header, sign it).
    func prepare(_ request: inout Request, target: any TargetType)
    /// Called just before the request is sent.
    func willSend(_ request: Request, target: any TargetType)
    /// Called when the attempt ended, whatever the result.
    func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType)
    /// Changes the result before the caller sees it.
    func process(_ result: inout Result<Response, DispatchError>, request: Request, target: any TargetType)
}

extension Plugin {
    public func prepare(_ request: inout Request, target: any TargetType) {}
    public func willSend(_ request: Request, target: any TargetType) {}
    public func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {}
    public func process(_ result: inout Result<Response, DispatchError>, request: Request, target: any TargetType) {}
}
