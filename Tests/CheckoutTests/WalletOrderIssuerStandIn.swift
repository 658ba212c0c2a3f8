import Checkout
import Foundation
import OrderModel
import PassBundle
import PassCrypto
import PassModel
import Synchronization
import TesseraTestSupport

/// A Wallet order issuer for tests, as the orders web service's will be: it merges the data into the repository's
/// order template, adds the web service's URL and a fresh token, and signs a real `.order` with a development Order
/// Type ID certificate (``OrderBuilder`` validates it, so an invalid order is refused). Idempotent on the
/// `orderIdentifier`; it can fail its first calls.
final class WalletOrderIssuerStandIn: WalletOrderIssuing {
    static let orderTypeIdentifier = "order.dev.tessera.test"
    static let webServiceURL = "https://orders.example.test/"

    /// A Wallet order it made.
    struct Issued: Sendable {
        var details: WalletOrderDetails
        /// The data document checkout sent.
        var data: Data
        var built: BuiltOrder
    }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "the orders web service is not available" }
    }

    private struct State {
        var calls = 0
        var failuresLeft: Int
        var issued: [String: Issued] = [:]
    }

    private let state: Mutex<State>
    let chain: TestChain
    let builder: OrderBuilder

    init(failFirst: Int = 0) throws {
        state = Mutex(State(failuresLeft: failFirst))
        chain = try TestChain()
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: Self.orderTypeIdentifier,
                                                         teamIdentifier: "TESSERA123")
        let signer = try OrderSigner(credentials: PassCredentials(certificate: order.certificate, privateKey: order.key,
                                                                  wwdr: chain.chain.wwdr))
        let template = try OrderTemplate(
            directory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"))
        builder = OrderBuilder(template: template, signer: signer)
    }

    /// How many times checkout asked.
    var calls: Int { state.withLock { $0.calls } }
    /// The orders made, by identifier.
    var issued: [String: Issued] { state.withLock { $0.issued } }

    func issueWalletOrder(template: String, data: Data) async throws -> WalletOrderDetails {
        let existing: Issued?? = try state.withLock { state in
            state.calls += 1
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                throw Unavailable()
            }
            guard let identifier = try JSONValue(jsonData: data)["orderIdentifier"]?.stringValue else { return .none }
            return .some(state.issued[identifier])
        }
        guard template == "shop-order" else { throw CheckoutTestError("unknown order template \(template)") }
        guard case .some(let found) = existing else { throw CheckoutTestError("the data names no orderIdentifier") }
        if let found { return found.details }
        guard case .object(var object) = try JSONValue(jsonData: data) else { throw CheckoutTestError("not an object") }
        let token = SecretToken.random(length: 32)
        object["webServiceURL"] = .string(Self.webServiceURL)
        object["authenticationToken"] = .string(token)
        let built = try builder.build(data: try JSONValue.object(object).jsonData(sortedKeys: true, prettyPrinted: false))
        let details = WalletOrderDetails(
            orderTypeIdentifier: Self.orderTypeIdentifier, orderIdentifier: built.orderIdentifier,
            webServiceURL: Self.webServiceURL, authenticationToken: token,
            downloadURL: "\(Self.webServiceURL)download/\(built.orderIdentifier).order")
        return state.withLock { state in
            if let raced = state.issued[built.orderIdentifier] { return raced.details }
            state.issued[built.orderIdentifier] = Issued(details: details, data: data, built: built)
            return details
        }
    }
}
