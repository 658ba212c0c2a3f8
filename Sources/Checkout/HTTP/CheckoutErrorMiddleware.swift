import Hummingbird
import Logging
import TesseraHTTP
import PaymentRequest

/// Makes sure no checkout request ends in an empty 5xx or outside the ``ErrorEnvelope``: Hummingbird's own errors
/// (a missing path parameter) get the code their status stands for; errors that already carry an HTTP answer pass
/// through;
/// a payment request that cannot be built from the session becomes a 422 naming the cause; anything else is logged
/// with the request's path and answered 500 `internalError` with a JSON body.
struct CheckoutErrorMiddleware: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request, context: WebServiceRequestContext,
        next: (Request, WebServiceRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            throw CheckoutError(httpError: error)
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as PaymentRequestError {
            logger.notice("checkout session cannot be priced", metadata: [
                "path": "\(request.uri.path)", "error": "\(error.reason)",
            ])
            throw CheckoutError.invalid(nil, "the session cannot be offered on Apple Pay: \(error.reason)",
                                        status: .unprocessableContent)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.error("checkout request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw CheckoutError(.internalError, status: .internalServerError,
                                "the server could not complete the request; it has been logged")
        }
    }
}
