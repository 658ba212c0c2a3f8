import PassWebService
import HTTPTypes
import Hummingbird

/// Answers methods the service never serves (`TRACE`, `CONNECT`, unknown ones) with 405 and the methods it does in
/// `Allow`, instead of a 404 that says the resource is missing (RFC 9110 §15.5.6); the router's own not-found answer
/// (bare in Hummingbird) gets the ``ErrorEnvelope`` like every other refusal.
///
/// Added to the router after the routes, so only the router's not-found answer passes through it (Hummingbird gives
/// that answer every middleware, and a route only those added before it): requests the routes serve skip it.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Every method some route of the server answers.
    static var served: [HTTPRequest.Method] { [.get, .head, .post, .patch, .delete] }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.served.contains(request.method) || request.method == .options || request.method == .put else {
            throw WebServiceError(
                .methodNotAllowed, status: .methodNotAllowed, "\(request.method.rawValue) is not served here",
                headers: [.allow: Self.served.map(\.rawValue).joined(separator: ", ")])
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            throw WebServiceError.noRoute
        }
    }
}
