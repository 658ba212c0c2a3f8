import Foundation
import PassStore
@testable import PassWebService
import Testing

/// A gate scanning with a brand's API key finds the brand's own ticket, however many other brands' passes carry the
/// same barcode message.
@Suite("Scans by an API key")
struct RedemptionScopeTests {
    @Test("a key's own ticket is found past 25 other brands' passes carrying the same message")
    func ownTicketFoundPastOthers() async throws {
        let issuer = try WebServiceFixture.standaloneIssuer()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func insert(_ type: String, _ serial: String) async throws {
            _ = try await issuer.store.insertPass(
                NewPass(passTypeIdentifier: type, serialNumber: serial, authenticationToken: "auth-\(serial)-0123456789",
                        template: "event-ticket", data: Data(#"{"barcodeMessage":"100123"}"#.utf8),
                        downloadToken: "dl-\(type)-\(serial)"),
                now: now)
        }
        for index in 0..<25 { try await insert("pass.com.a.tickets", "A-\(index)") }
        try await insert("pass.com.z.tickets", "Z-1")
        let venue = IssuerScope(identifiers: ["pass.com.z.*"], permissions: [])
        let found = try await issuer.passes(barcodeMessage: "100123", visible: venue)
        #expect(found.map(\.serialNumber) == ["Z-1"])
        try await insert("pass.com.z.tickets", "Z-2")
        #expect(try await issuer.passes(barcodeMessage: "100123", visible: venue).map(\.serialNumber) == ["Z-1", "Z-2"])
        #expect(try await issuer.passes(barcodeMessage: "100123", visible: nil).count == 2)
    }
}
