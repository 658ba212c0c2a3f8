import Foundation
import PassStore
import PostgresNIO

// The reads every device request makes, as prepared statements: each connection parses and plans them once instead
// of on every request (planning the serial-number join cost more than running it).

extension PostgresStore {
    /// A pass by its key: the device fetch and every authenticated device request.
    struct PassByKey<Kind: ItemKind>: PostgresPreparedStatement {
        static var name: String { Kind.tables.kind == "pass" ? "tessera_pass_by_key" : "tessera_order_by_key" }
        static var sql: String { Kind.statements.itemByKey }
        typealias Row = PassRecord

        var passTypeIdentifier: String
        var serialNumber: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(passTypeIdentifier)
            bindings.append(serialNumber)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> PassRecord { try PostgresStore.passRecord(row) }
    }

    /// A pass by its key for a credential check, or when there is none the first pass by key in its place: the
    /// Append node stops at LIMIT 1, so a found pass reads one row through the key's index and a missing one reads one
    /// row through the same index, and both cost the same. The first column says whether the pass was found.
    struct PassForAuthentication<Kind: ItemKind>: PostgresPreparedStatement {
        static var name: String {
            Kind.tables.kind == "pass" ? "tessera_pass_for_authentication" : "tessera_order_for_authentication"
        }
        static var sql: String { Kind.statements.itemForAuthentication }
        typealias Row = (Bool, PassRecord)

        var passTypeIdentifier: String
        var serialNumber: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(passTypeIdentifier)
            bindings.append(serialNumber)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Bool, PassRecord) { try PostgresStore.flaggedPassRecord(row) }
    }

    /// The serial numbers and tags of a device's passes of one type changed after a tag: the list endpoint.
    struct ChangedSerialNumbers<Kind: ItemKind>: PostgresPreparedStatement {
        static var name: String {
            Kind.tables.kind == "pass" ? "tessera_changed_serial_numbers" : "tessera_changed_order_identifiers"
        }
        static var sql: String { Kind.statements.changedItems }
        typealias Row = (String, Int64)

        var deviceLibraryIdentifier: String
        var passTypeIdentifier: String
        var updatedSince: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(deviceLibraryIdentifier)
            bindings.append(passTypeIdentifier)
            bindings.append(updatedSince)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, Int64) { try row.decode((String, Int64).self) }
    }

    /// A registration in one statement (one round trip, its own transaction): the pass must exist, the device is
    /// created or its push token updated (which locks the device row, so a concurrent unregister cannot remove the
    /// device under the new registration), then the registration is added unless present. Answers whether the pass
    /// exists and whether the registration is new. A new registration records its event in the same statement.
    struct Register<Kind: ItemKind>: PostgresPreparedStatement {
        static var name: String { Kind.tables.kind == "pass" ? "tessera_register" : "tessera_register_order" }
        static var sql: String { Kind.statements.register }
        typealias Row = (Bool, Bool)

        var deviceLibraryIdentifier: String
        var pushToken: String
        var passTypeIdentifier: String
        var serialNumber: String
        var now: Date
        /// The event a new registration records.
        var event: WalletEventDraft

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 8)
            bindings.append(deviceLibraryIdentifier)
            bindings.append(pushToken)
            bindings.append(passTypeIdentifier)
            bindings.append(serialNumber)
            bindings.append(now)
            bindings.append(event.type.rawValue)
            bindings.append(event.device ?? "")
            bindings.append(String(decoding: event.data, as: UTF8.self))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Bool, Bool) { try row.decode((Bool, Bool).self) }
    }

    /// Runs a prepared statement outside a transaction and collects its rows.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row]
        where Statement.Row: Sendable
    {
        try await pool.rows(statement, mapError: Self.storeError)
    }
}
