import Checkout
import Foundation
import PassBundle
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraServer
import TesseraTestSupport

/// Checkout's order passes issued through the pass web service, signed with a certificate whose Pass Type ID is not
/// the one the template names (an issuer's own certificate): issuing an order's pass again, or twice at once (two
/// recoveries of one authorization), gives the one pass, never an error.
@Suite("Order passes with an issuer's own certificate")
struct OrderPassIssuerTests {
    static let type = "pass.com.example.real-tickets"

    private static func adapter() throws -> (OrderPassIssuer, PassIssuer) {
        let chain = try TestChain(passTypeIdentifier: type, teamIdentifier: "REALTEAM12")
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
            wwdrPath: chain.path("wwdr.pem")))
        let issuer = PassIssuer(
            store: MemoryPassStore(), signer: signer,
            configuration: .init(templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"),
                                 publicURL: URL(string: "https://passes.example.test")!))
        return (OrderPassIssuer(issuer: issuer), issuer)
    }

    private static func data(_ serial: String) -> [String: JSONValue] {
        ["serialNumber": .string(serial), "barcodeMessage": .string(serial)]
    }

    @Test("issued again: the same pass, under the certificate's Pass Type ID")
    func again() async throws {
        let (adapter, issuer) = try Self.adapter()
        #expect(try issuer.passTypeIdentifier(ofTemplate: "event-ticket") == Self.type)
        let first = try await adapter.issueOrderPass(template: "event-ticket", serialNumber: "ORD-1-1", data: Self.data("ORD-1-1"))
        #expect(first.passTypeIdentifier == Self.type)
        let second = try await adapter.issueOrderPass(template: "event-ticket", serialNumber: "ORD-1-1", data: Self.data("ORD-1-1"))
        #expect(second == first)
    }

    @Test("issued twice at once: both get the one pass")
    func concurrently() async throws {
        let (adapter, issuer) = try Self.adapter()
        let issued = try await withThrowingTaskGroup(of: IssuedOrderPass.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await adapter.issueOrderPass(template: "event-ticket", serialNumber: "ORD-2-1", data: Self.data("ORD-2-1"))
                }
            }
            return try await group.reduce(into: [IssuedOrderPass]()) { $0.append($1) }
        }
        #expect(Set(issued.map(\.downloadURL)).count == 1)
        #expect(try await issuer.store.pass(passTypeIdentifier: Self.type, serialNumber: "ORD-2-1") != nil)
    }
}
