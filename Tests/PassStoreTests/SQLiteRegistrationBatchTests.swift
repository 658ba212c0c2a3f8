import Foundation
import PassStore
import SQLiteStore
import Testing

/// Registrations that reach the SQLite store at once are written together: every caller gets its own outcome or error,
/// and one refused registration (its pass is missing, found before it writes anything) leaves the others in its
/// transaction written.
@Suite("SQLiteStore: registrations written together")
struct SQLiteRegistrationBatchTests {
    /// A new store in a folder of its own (the caller removes the folder), and its file's path for reopening it.
    static func freshStore() async throws -> (folder: URL, path: String, store: SQLiteStore) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        return (folder, path, store)
    }

    @Test("300 registrations at once, a tenth for missing passes: each answered alone, every one that succeeded kept once")
    func concurrentRegistrations() async throws {
        let (folder, path, store) = try await Self.freshStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Fixtures.insert((0..<30).map { "G\($0)" }, into: store)
        enum Answer: Equatable, Sendable { case created, updated, missing, other(String) }
        // Device i registers for pass i % 30; every tenth names a pass that does not exist; devices 0-29 register twice.
        let requests = (0..<300).map { index in
            (device: "dev-\(index % 270)", serial: index % 10 == 9 ? "missing-\(index)" : "G\(index % 30)")
        }
        let answers = try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do {
                        let outcome = try await Fixtures.register(request.device, token: "t-\(request.device)",
                                                                  request.serial, in: store)
                        return (index, outcome == .created ? .created : .updated)
                    } catch let error as PassStoreError
                        where error == .passNotFound(passTypeIdentifier: Fixtures.passType, serialNumber: request.serial) {
                        return (index, .missing)
                    } catch {
                        return (index, .other("\(error)"))
                    }
                }
            }
            var answers: [Int: Answer] = [:]
            for try await (index, answer) in group { answers[index] = answer }
            return answers
        }
        #expect(answers.values.filter { if case .other = $0 { true } else { false } }.isEmpty, "\(answers)")
        for (index, request) in requests.enumerated() where request.serial.hasPrefix("missing") {
            #expect(answers[index] == .missing)
        }
        // Each distinct (device, pass) is created once; a repeat is an update, whichever came first.
        var expected: [String: Int] = [:]
        for request in requests where !request.serial.hasPrefix("missing") { expected[request.device + "|" + request.serial, default: 0] += 1 }
        #expect(answers.values.filter { $0 == .created }.count == expected.count)
        #expect(answers.values.filter { $0 == .updated }.count == expected.values.reduce(0, +) - expected.count)
        // What was answered is what a reopened store holds, with one pass.registered event per new registration.
        let reopened = try SQLiteStore(path: path)
        var total = 0
        for serial in 0..<30 {
            total += try await reopened.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "G\(serial)")
        }
        #expect(total == expected.count)
        let events = try await reopened.events(after: EventCursor(id: 0), types: ["pass.registered"], limit: 1_000)
        #expect(events.count == expected.count)
    }

    @Test("300 credential-checked registrations at once, a third with a wrong token and a tenth for missing passes: the refused answer nil and write nothing, the others are kept")
    func concurrentAuthenticatedRegistrations() async throws {
        let (folder, path, store) = try await Self.freshStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = try await Fixtures.insert((0..<30).map { "H\($0)" }, into: store)
        let tokens = Dictionary(uniqueKeysWithValues: records.map { ($0.serialNumber, $0.authenticationToken) })
        // Device i asks for pass i % 30 with its right token, except every third (a wrong one) and every tenth (a pass
        // that does not exist, with some pass's real token).
        let requests = (0..<300).map { index in
            (device: "adev-\(index)", serial: index % 10 == 9 ? "missing-\(index)" : "H\(index % 30)",
             token: index % 3 == 0 ? "wrong-\(index)" : tokens["H\(index % 30)"]!)
        }
        let answers = try await withThrowingTaskGroup(of: (Int, RegistrationOutcome?).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    let token = request.token
                    let outcome = try await store.register(
                        deviceLibraryIdentifier: request.device, pushToken: "push-\(index)",
                        passTypeIdentifier: Fixtures.passType, serialNumber: request.serial, now: Fixtures.now,
                        authenticate: { $0 == token })
                    return (index, outcome)
                }
            }
            var answers: [Int: RegistrationOutcome?] = [:]
            for try await (index, outcome) in group { answers[index] = outcome }
            return answers
        }
        let accepted = requests.indices.filter { requests[$0].serial.hasPrefix("H") && !requests[$0].token.hasPrefix("wrong") }
        for index in requests.indices {
            let expected: RegistrationOutcome? = accepted.contains(index) ? .created : nil
            #expect(answers[index] == expected, "request \(index): \(requests[index])")
        }
        let reopened = try SQLiteStore(path: path)
        var total = 0
        for serial in 0..<30 {
            total += try await reopened.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "H\(serial)")
        }
        #expect(total == accepted.count)
        for index in requests.indices where !accepted.contains(index) {
            #expect(try await reopened.serialNumbers(deviceLibraryIdentifier: requests[index].device,
                                                     passTypeIdentifier: Fixtures.passType, updatedSince: nil) == nil)
        }
        let events = try await reopened.events(after: EventCursor(id: 0), types: ["pass.registered"], limit: 1_000)
        #expect(events.count == accepted.count)
    }
}
