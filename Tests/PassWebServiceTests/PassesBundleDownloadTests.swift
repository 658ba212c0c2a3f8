import Foundation
import Hummingbird
import HummingbirdTesting
import PassBundle
import PassCrypto
import PassWebService
import Testing
import TesseraTestSupport

@Suite("Issuer API: several passes as one .pkpasses")
struct PassesBundleDownloadTests {
    static let type = "pass.dev.tessera.demo"
    static let uri = "/wallet/api/v1/pkpasses"

    static func body(_ serials: [String], type: String = Self.type) -> ByteBuffer {
        let items = serials.map { #"{"passTypeIdentifier":"\#(type)","serialNumber":"\#($0)"}"# }
        return .json(#"{"passes":[\#(items.joined(separator: ","))]}"#)
    }

    @Test("POST /api/v1/pkpasses: application/vnd.apple.pkpasses holding each named pass signed, in the order named")
    func download() async throws {
        let fixture = try WebServiceFixture()
        for serial in ["B-1", "B-2", "B-3"] { _ = try await fixture.createPass(serial: serial) }
        try await fixture.withClient { client in
            let answer = try await client.execute(
                uri: Self.uri, method: .post, headers: .admin, body: Self.body(["B-3", "B-1", "B-2"]))
            #expect(answer.status == .ok, "\(answer.body.json)")
            #expect(answer.headers[.contentType] == "application/vnd.apple.pkpasses")
            #expect(answer.headers[.contentDisposition] == "attachment; filename=\"passes.pkpasses\"")
            let bundle = try PassesBundle(data: answer.body.data)
            #expect(bundle.passes.map(\.name) == ["B-3.pkpass", "B-1.pkpass", "B-2.pkpass"])
            for entry in bundle.passes {
                let report = PassVerifier(root: fixture.chain.chain.root).verify(data: entry.data)
                #expect(report.wouldOpen && report.chainVerified, "\(entry.name): \(report.issues)")
                let serial = String(entry.name.dropLast(".pkpass".count))
                let single = try await client.execute(
                    uri: "/wallet/api/v1/passes/\(Self.type)/\(serial)/pkpass", method: .get, headers: .admin)
                #expect(single.body.data == entry.data, "\(entry.name) is the pass's current signed version")
            }
        }
    }

    @Test("Apple's limits and bad requests get a 4xx naming the cause, before anything is signed")
    func refusals() async throws {
        let fixture = try WebServiceFixture()
        let serials = (1...11).map { "L-\($0)" }
        for serial in serials { _ = try await fixture.createPass(serial: serial) }
        try await fixture.withClient { client in
            func refused(_ body: ByteBuffer, headers: HTTPFields = .admin) async throws -> (Int, String) {
                let answer = try await client.execute(uri: Self.uri, method: .post, headers: headers, body: body)
                return (Int(answer.status.code), (answer.body.json["error"] as? [String: Any])?["message"] as? String ?? "")
            }
            let eleven = try await refused(Self.body(serials))
            #expect(eleven.0 == 422)
            #expect(eleven.1 == """
                passes: Wallet takes at most 10 passes from one .pkpasses bundle; 11 were asked for (download them in \
                parts, or one by one)
                """)
            #expect(try await refused(Self.body([])) == (422, "passes: a .pkpasses bundle needs at least one pass"))
            #expect(try await refused(Self.body(["L-1", "L-404"])) == (404, "passes[1]: no pass \(Self.type) / L-404"))
            #expect(try await refused(Self.body(["L-1", "L-2", "L-1"]))
                == (422, "passes[2]: names the same pass as passes[0]"))
            #expect(try await refused(Self.body(["L/1"])) == (400, "passes[0].serialNumber: not a serial number"))
            #expect(try await refused(Self.body(["L-1"], type: "com.example"))
                == (400, "passes[0].passTypeIdentifier: not a pass type identifier"))
            #expect(try await refused(.json(#"{"passes":[{"serialNumber":"L-1"}]}"#))
                == (400, "passes.[0].passTypeIdentifier: missing"))
            #expect(try await refused(Self.body(["L-1"]), headers: .json()).0 == 401)
        }
        // Ten passes are within Apple's limit.
        try await fixture.withClient { client in
            let answer = try await client.execute(
                uri: Self.uri, method: .post, headers: .admin, body: Self.body(Array(serials.prefix(10))))
            #expect(answer.status == .ok)
            #expect(try PassesBundle(data: answer.body.data).passes.count == 10)
        }
    }

    @Test("A bundle larger than the configured size (never above Apple's 150 MB) is 422")
    func sizeLimit() async throws {
        let fixture = try WebServiceFixture(passesBundleMaximumSize: 4000)
        for serial in ["S-1", "S-2"] { _ = try await fixture.createPass(serial: serial) }
        #expect(fixture.issuer.passesBundleMaximumSize == 4000)
        try await fixture.withClient { client in
            let answer = try await client.execute(uri: Self.uri, method: .post, headers: .admin, body: Self.body(["S-1", "S-2"]))
            #expect(answer.status == .unprocessableContent)
            let message = (answer.body.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("passes: the 2 signed passes are "), "\(message)")
            #expect(message.hasSuffix(" bytes; a .pkpasses bundle may be at most 4000 bytes (Wallet takes at most 150 MB): download them in parts"))
        }
        let generous = try WebServiceFixture(passesBundleMaximumSize: 1 << 40)
        #expect(generous.issuer.passesBundleMaximumSize == 150_000_000)
    }
}
