import Checkout
import HTTPTypes
import Hummingbird
import Logging
import PassWebService
import PaymentRequest

/// Makes sure no checkout request ends in an empty 5xx or outside the ``ErrorEnvelope``: a ``CheckoutError`` is
/// answered with the envelope and its status; an `AuthorizationFailure` with its authorization result (Apple Pay's
/// answer, not the envelope); Hummingbird's own errors (a missing path parameter) get the code their status stands
/// for; other errors that already carry an HTTP answer pass through; a payment request that cannot be built from the
/// session becomes a 422 naming the cause; anything else is logged with the request's path and answered 500
/// `internalError` with a JSON body.
struct CheckoutErrorMiddleware: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request, context: WebServiceRequestContext,
        next: (Request, WebServiceRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as CheckoutError {
            throw CheckoutFailureResponse(error)
        } catch let failure as AuthorizationFailure {
            throw CheckoutFailureResponse(failure)
        } catch let error as HTTPError {
            throw WebServiceError(httpError: error)
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as PaymentRequestError {
            logger.notice("checkout session cannot be priced", metadata: [
                "path": "\(request.uri.path)", "error": "\(error.reason)",
            ])
            throw CheckoutFailureResponse(CheckoutError.invalid(
                nil, "the session cannot be offered on Apple Pay: \(error.reason)", status: .unprocessableContent))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.error("checkout request failed", metadata: ["path": "\(LogRedactor.requestPath(request.uri.path))", "error": "\(error)"])
            throw CheckoutFailureResponse(CheckoutError(
                .internalError, status: .internalServerError,
                "the server could not complete the request; it has been logged"))
        }
    }
}

/// A checkout failure as an HTTP answer: the ``ErrorEnvelope`` for a ``CheckoutError``, the authorization result for
/// an `AuthorizationFailure`.
struct CheckoutFailureResponse: HTTPResponseError {
    let status: HTTPResponse.Status
    private let makeResponse: @Sendable () throws -> Response

    init(_ error: CheckoutError) {
        status = error.status
        makeResponse = {
            ErrorEnvelope(code: error.code.description, message: error.description, field: error.field)
                .response(status: error.status)
        }
    }

    init(_ failure: AuthorizationFailure) {
        status = failure.status
        makeResponse = { try CheckoutResponse.json(failure.result, status: failure.status) }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try makeResponse()
    }
}
