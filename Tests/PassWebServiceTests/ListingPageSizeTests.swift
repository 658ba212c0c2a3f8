import Foundation
import PassModel
import PassStore
@testable import PassWebService
import Testing

/// A page of the pass listing is bounded by the data it carries as well as by its count: passes with their own
/// images (up to 8 MB each) end a page early, with a cursor to the rest.
@Suite("Pass listing: pages bounded by their data")
struct ListingPageSizeTests {
    @Test("four passes of 7 MB asked for in a page of 1,000: three, then the fourth; a page of small passes is whole")
    func pagesBoundedByData() async throws {
        let issuer = try WebServiceFixture.standaloneIssuer()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let photo = String(repeating: "A", count: 7 << 20)
        for serial in ["B1", "B2", "B3", "B4"] {
            _ = try await issuer.store.insertPass(
                NewPass(passTypeIdentifier: "pass.com.big", serialNumber: serial, authenticationToken: "auth-\(serial)-0123456789",
                        template: "event-ticket", data: Data(#"{"images":{"thumbnail.png":"\#(photo)"}}"#.utf8),
                        downloadToken: "dl-\(serial)"),
                now: now)
        }
        for index in 0..<250 {
            _ = try await issuer.store.insertPass(
                NewPass(passTypeIdentifier: "pass.com.small", serialNumber: String(format: "S%03d", index),
                        authenticationToken: "auth-small-\(index)-0123456789", template: "event-ticket", data: Data("{}".utf8),
                        downloadToken: "dl-small-\(index)"),
                now: now)
        }
        let first = try await issuer.listItems(try ItemListRequest(
            parameters: [("passTypeIdentifier", "pass.com.big"), ("limit", "1000")], kind: .pass))
        #expect(first.items.map(\.record.serialNumber) == ["B1", "B2", "B3"])
        let cursor = try #require(first.nextCursor)
        let second = try await issuer.listItems(try ItemListRequest(
            parameters: [("passTypeIdentifier", "pass.com.big"), ("limit", "1000"), ("cursor", cursor)], kind: .pass))
        #expect(second.items.map(\.record.serialNumber) == ["B4"] && second.nextCursor == nil)
        // Read from the store in parts, a page of small passes is still whole, and the last one has no cursor.
        let small = try await issuer.listItems(try ItemListRequest(
            parameters: [("passTypeIdentifier", "pass.com.small"), ("limit", "250")], kind: .pass))
        #expect(small.items.count == 250 && small.nextCursor == nil)
        let part = try await issuer.listItems(try ItemListRequest(
            parameters: [("passTypeIdentifier", "pass.com.small"), ("limit", "200")], kind: .pass))
        #expect(part.items.count == 200 && part.nextCursor != nil)
    }
}
