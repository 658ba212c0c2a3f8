import HTTPTypes
import Hummingbird

/// Answers a method a served path has no route for with 405 and the path's methods in `Allow`, and methods the
/// service never serves (`TRACE`, `CONNECT`, unknown ones) with 405 and every method it does, instead of a 404 that
/// says the resource is missing (RFC 9110 §15.5.6); the router's own not-found answer (bare in Hummingbird) gets the
/// ``ErrorEnvelope`` like every other refusal.
///
/// ``RouteTable`` adds it after every route, so only the router's not-found answer passes through it.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Every method some route of the server answers.
    static var served: [HTTPRequest.Method] { [.get, .head, .post, .patch, .delete] }
    /// The order methods are listed in `Allow`.
    private static var listed: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    let paths: ServedPaths

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.served.contains(request.method) || request.method == .options || request.method == .put else {
            throw Self.refusal(request.method, allowed: Self.served)
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            if let methods = paths.methods(for: request.uri.path), !methods.contains(request.method) {
                throw Self.refusal(request.method, allowed: Self.listed.filter(methods.contains))
            }
            throw WebServiceError.noRoute
        }
    }

    private static func refusal(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> WebServiceError {
        WebServiceError(
            .methodNotAllowed, status: .methodNotAllowed, "\(method.rawValue) is not served here",
            headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
    }
}
