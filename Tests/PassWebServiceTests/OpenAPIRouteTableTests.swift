import Checkout
import Foundation
import Logging
import PassBundle
import PassCrypto
import PassWebService
import Testing
@_spi(Testing) import TesseraServer
import TesseraTestSupport

/// The OpenAPI document is the contract: the route table of the composed server (every service on: passes, orders,
/// the issuer API, checkout) and the document's operations are the same set. The conformance tests then check each
/// documented operation's statuses and schemas by calling it.
@Suite("The server's routes against docs/openapi.json")
struct OpenAPIRouteTableTests {
    /// A route or a documented operation: method and path template.
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }

        /// The path with every `{parameter}` as `[^/]+`, for matching another template's sample path.
        var pattern: Regex<Substring> {
            let escaped = path.replacing(/\{[^}\/]*\}/, with: "\u{0}")
                .map { $0 == "\u{0}" ? "[^/]+" : NSRegularExpression.escapedPattern(for: String($0)) }.joined()
            return try! Regex<Substring>("^" + escaped + "$")
        }

        /// The path with every `{parameter}` filled in.
        var sample: String { path.replacing(/\{[^}\/]*\}/, with: "x") }

        /// Whether the two name the same operation (same method; each template's sample fits the other).
        func corresponds(to other: Operation) -> Bool {
            method == other.method
                && (sample.wholeMatch(of: other.pattern) != nil || other.sample.wholeMatch(of: pattern) != nil)
        }
    }

    static func documentedOperations() throws -> [Operation] {
        let data = try Data(contentsOf: Subprocess.repositoryRoot.appendingPathComponent("docs/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        return paths.flatMap { path, item in
            item.keys.filter(methods.contains).map { Operation(method: $0.uppercased(), path: path) }
        }
    }

    /// The example merchant without credential files (no processor: nothing to shut down), in development mode.
    static func merchant() throws -> MerchantConfiguration {
        let data = try Data(contentsOf: Subprocess.repositoryRoot.appendingPathComponent("docs/examples/merchant.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["merchantIdentity", "paymentProcessingKeyPaths", "appleRootCertificatePath", "paymentProcessor",
                    "apiKeyFile"] {
            object[key] = nil
        }
        object["developmentMode"] = true
        object["walletOrders"] = ["orderTypeIdentifier": "order.com.example.shop", "template": "shop-order"]
        return try JSONDecoder().decode(MerchantConfiguration.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test("every route of the composed server is documented, and every documented operation is a route")
    func routesAreTheDocument() async throws {
        let folder = try TemporaryDirectory.make(prefix: "openapi-routes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let google = try GoogleWalletStandIn()
        defer { google.stop() }
        let configuration = try openAPIServerConfiguration(folder: folder, merchant: try Self.merchant(), google: google)
        let routes = try await TesseraServer.routes(configuration: configuration, logger: Logger(label: "openapi-routes"))
            .map { description -> Operation in
                let parts = description.split(separator: " ", maxSplits: 1).map(String.init)
                let path = parts[1].hasPrefix("/") ? parts[1] : "/" + parts[1]
                return Operation(method: parts[0], path: path)
            }
        let documented = try Self.documentedOperations()
        #expect(routes.count >= 30, "\(routes)")

        // Every GET answers HEAD (the document says so once, and lists HEAD where it says more).
        let undocumented = routes.filter { route in
            !documented.contains { $0.corresponds(to: route) }
                && !(route.method == "HEAD" && documented.contains { $0.corresponds(to: Operation(method: "GET", path: route.path)) })
        }
        #expect(undocumented.isEmpty, "routes missing from docs/openapi.json: \(undocumented.sorted { $0.description < $1.description })")
        let unrouted = documented.filter { operation in !routes.contains { $0.corresponds(to: operation) } }
        #expect(unrouted.isEmpty, "documented operations no route answers: \(unrouted.sorted { $0.description < $1.description })")
    }
}
