import Foundation
import Hummingbird
import HummingbirdTesting
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport
import Timestamps

/// Create, GET, PATCH in the same second, then GET with the first `Last-Modified`: the pass changed, so 200.
@Suite("Last-Modified across changes in one second")
struct LastModifiedTests {
    @Test("a device never gets 304 for a version it has not seen")
    func sameSecondChange() async throws {
        let fixture = try WebServiceFixture()  // the clock stands still: every step below is in the same second
        try await fixture.withClient { client in
            let created = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                body: .json(#"{"template":"event-ticket","data":{"serialNumber":"LM-1"}}"#))
            #expect(created.status == .created)
            let token = try #require(created.body.json["authenticationToken"] as? String)
            let path = "/wallet/v1/passes/pass.dev.tessera.demo/LM-1"
            let first = try await client.execute(uri: path, method: .get, headers: .applePass(token))
            #expect(first.status == .ok)
            let seen = try #require(first.headers[.lastModified])

            for seat in ["2B", "3C"] {
                let patched = try await client.execute(
                    uri: "/wallet/api/v1/passes/pass.dev.tessera.demo/LM-1", method: .patch, headers: .admin,
                    body: .json(#"{"data":{"fields":{"seat":"\#(seat)"}}}"#))
                #expect(patched.status == .ok)
            }
            var conditional = HTTPFields.applePass(token)
            conditional[.ifModifiedSince] = seen
            let again = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(again.status == .ok)
            #expect(again.headers[.lastModified] != seen)

            // The version now held is fresh.
            conditional[.ifModifiedSince] = again.headers[.lastModified]
            let fresh = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(fresh.status == .notModified)
        }
    }
}

/// Two issuer changes of one pass at the same moment both land: each is merged into the version it is written over.
@Suite("PassIssuer concurrent changes")
struct PassIssuerConcurrentChangeTests {
    @Test("concurrent PATCHes of different fields of one pass: every field keeps its new value")
    func concurrentFieldChanges() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "CC-1")
        let issuer = fixture.issuer
        let changes: [(String, String)] = [("section", "S9"), ("row", "R9"), ("seat", "9Z"), ("doors", "2026-12-05T18:00-08:00"),
                                           ("venue", "Hall 2"), ("event", "Encore"), ("date", "2026-12-06T19:30-08:00"), ("address", "2 Arena Way, Oakland, CA 94607")]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (key, value) in changes {
                group.addTask {
                    _ = try await issuer.changePass(
                        passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "CC-1",
                        data: ["fields": .object([key: .string(value)])])
                }
            }
            try await group.waitForAll()
        }
        let stored = try #require(try await fixture.store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "CC-1"))
        guard case .object(let document) = try JSONValue(jsonData: stored.data),
              case .object(let fields) = document["fields"]
        else { Issue.record("no fields in the stored data"); return }
        for (key, value) in changes {
            #expect(fields[key] == .string(value), "\(key) lost: \(fields)")
        }
    }
}

/// A change that removes nothing from a pass that sets no field is no change.
@Suite("PassIssuer changes that change nothing")
struct PassIssuerEmptyChangeTests {
    @Test("removing a field a pass does not set makes no version and no push, whether or not it sets others")
    func removingAbsentField() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "EC-1")
        let issuer = fixture.issuer
        let unchanged = try #require(try await issuer.changePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "EC-1", data: ["fields": .object(["seat": .null])]))
        #expect(unchanged.pass.updateTag == pass.updateTag && unchanged.pushesQueued == 0)
        #expect(unchanged.pass.data == pass.data)

        // A value the pass sets, removed: the template's value is shown again, in a version that builds.
        let set = try #require(try await issuer.changePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "EC-1", data: ["fields": .object(["seat": "9Z"])]))
        #expect(try await issuer.currentFieldValues(of: set.pass)["seat"] == "9Z")
        let removed = try #require(try await issuer.changePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "EC-1", data: ["fields": .object(["seat": .null])]))
        #expect(removed.pass.updateTag != set.pass.updateTag)
        let template = try await issuer.currentFieldValues(of: pass)["seat"]
        #expect(try await issuer.currentFieldValues(of: removed.pass)["seat"] == template)
        _ = try await issuer.bundle(for: removed.pass)
    }
}

/// Changes merge into a pass's data: its size is bounded as a whole, not only per request.
@Suite("PassIssuer data size")
struct PassIssuerDataSizeTests {
    @Test("a change that would take the pass's data past 16 MiB is refused 422 naming data; the pass stays as it was")
    func dataSizeBounded() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "DS-1")
        let issuer = fixture.issuer
        // Each change under the request limit, together past the pass's: 3 of 6 MiB.
        let chunk = String(repeating: "x", count: 6 << 20)
        for (index, key) in ["section", "row"].enumerated() {
            let changed = try await issuer.changePass(
                passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "DS-1", data: ["note\(index)": .string(chunk)])
            #expect(changed != nil, "\(key)")
        }
        let before = try #require(try await fixture.store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "DS-1"))
        let refused = await #expect(throws: IssuerError.self) {
            try await issuer.changePass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "DS-1",
                                        data: ["note2": .string(chunk)])
        }
        #expect(refused?.status == .unprocessableContent && refused?.field == "data", "\(String(describing: refused))")
        let after = try #require(try await fixture.store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "DS-1"))
        #expect(after.updateTag == before.updateTag)
        // What does not make it larger is still taken: a value removed.
        let smaller = try await issuer.changePass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "DS-1",
                                                  data: ["note0": .null])
        #expect(smaller.map { $0.pass.updateTag != before.updateTag } == true)
    }
}

/// A burst of changes moves a pass's stamp ahead of the clock; `Last-Modified` never says a time after the answer's.
@Suite("Last-Modified not after Date")
struct LastModifiedClockTests {
    @Test("a stamp ahead of the clock is sent as the clock's time, and that date brings the pass again, not a 304")
    func stampAheadOfClock() async throws {
        let fixture = try WebServiceFixture()
        // The service's clock an hour ahead of the wall clock: its stamps are as far ahead as a long burst's.
        fixture.clock.advance(Date().timeIntervalSince(fixture.clock.now) + 3600)
        let pass = try await fixture.createPass(serial: "LM-AHEAD")
        try await fixture.withClient { client in
            let path = "/wallet/v1/passes/\(pass.passTypeIdentifier)/LM-AHEAD"
            let answer = try await client.execute(uri: path, method: .get, headers: .applePass(pass.authenticationToken))
            #expect(answer.status == .ok)
            let shown = try #require(answer.headers[.lastModified].flatMap(HTTPDate.parse))
            #expect(shown <= Date(), "Last-Modified \(shown) is after the answer was made")
            #expect(shown < pass.lastModified)
            var conditional = HTTPFields.applePass(pass.authenticationToken)
            conditional[.ifModifiedSince] = answer.headers[.lastModified]
            #expect(try await client.execute(uri: path, method: .get, headers: conditional).status == .ok)
            // The stored stamp itself (a device that was sent it before) is fresh.
            conditional[.ifModifiedSince] = HTTPDate.format(pass.lastModified)
            let fresh = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(fresh.status == .notModified)
            #expect(fresh.headers[.lastModified].flatMap(HTTPDate.parse).map { $0 <= Date() } == true)

            // The issuer API says the same: a client syncing by updatedSince from the newest time it saw is never
            // ahead of its request, and so misses none of the passes changed after it.
            let read = try await client.execute(uri: "/wallet/api/v1/passes/\(pass.passTypeIdentifier)/LM-AHEAD",
                                                method: .get, headers: .admin)
            let stated = try #require((read.body.json["lastModified"] as? String).flatMap(HTTPDate.parse))
            #expect(stated <= Date(), "the issuer API's lastModified \(stated) is after the answer was made")
            let listed = try await client.execute(uri: "/wallet/api/v1/passes?template=event-ticket", method: .get,
                                                  headers: .admin)
            let item = try #require((listed.body.json["passes"] as? [[String: Any]])?.first)
            let listedStamp = try #require((item["lastModified"] as? String).flatMap(HTTPDate.parse))
            #expect(listedStamp <= Date(), "the listing's lastModified \(listedStamp) is after the answer was made")
        }
    }
}
