import HTTPTypes
import PassWebService

extension WebServiceError {
    /// The issuer's refusal as an HTTP answer: its status, its code and its message naming the field, in the envelope.
    /// - Parameter error: What the issuer refused.
    init(_ error: IssuerError) {
        let code: Code = switch error.code {
        case .notFound: .notFound
        case .conflict: .conflict
        case .idempotencyConflict: .idempotencyConflict
        case .passesBundleLimit: .passesBundleLimit
        case .signingUnavailable: .signingUnavailable
        case .internalError: .internalError
        default: .invalidRequest
        }
        self.init(code, status: error.status, error.description, field: error.field)
    }
}
