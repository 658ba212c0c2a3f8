import Foundation
import PassStore
import PostgresNIO

// The reads every device request makes, as prepared statements: each connection parses and plans them once instead
// of on every request (planning the serial-number join cost more than running it).

extension PostgresStore {
    /// A pass by its key: the device fetch and every authenticated device request.
    struct PassByKey: PostgresPreparedStatement {
        static let name = "tessera_pass_by_key"
        static let sql = "SELECT \(PostgresStore.passColumns) FROM passes WHERE pass_type_identifier = $1 AND serial_number = $2"
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
    struct PassForAuthentication: PostgresPreparedStatement {
        static let name = "tessera_pass_for_authentication"
        static let sql = """
            (SELECT true, \(PostgresStore.passColumns) FROM passes WHERE pass_type_identifier = $1 AND serial_number = $2)
            UNION ALL
            (SELECT false, \(PostgresStore.passColumns) FROM passes ORDER BY pass_type_identifier, serial_number LIMIT 1)
            LIMIT 1
            """
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
    struct ChangedSerialNumbers: PostgresPreparedStatement {
        static let name = "tessera_changed_serial_numbers"
        static let sql = """
            SELECT p.serial_number, p.update_tag FROM registrations r
            JOIN passes p ON p.pass_type_identifier = r.pass_type_identifier AND p.serial_number = r.serial_number
            WHERE r.device_library_identifier = $1 AND r.pass_type_identifier = $2 AND p.update_tag > $3
            ORDER BY p.update_tag
            """
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
    /// exists and whether the registration is new.
    struct Register: PostgresPreparedStatement {
        static let name = "tessera_register"
        static let sql = """
            WITH pass AS (
                SELECT 1 FROM passes WHERE pass_type_identifier = $3 AND serial_number = $4
            ), device AS (
                INSERT INTO devices (device_library_identifier, push_token, updated_at)
                SELECT $1, $2, $5 WHERE EXISTS (SELECT 1 FROM pass)
                ON CONFLICT (device_library_identifier)
                DO UPDATE SET push_token = EXCLUDED.push_token, updated_at = EXCLUDED.updated_at
                RETURNING 1
            ), registration AS (
                INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
                SELECT $1, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM device)
                ON CONFLICT DO NOTHING
                RETURNING 1
            )
            SELECT EXISTS (SELECT 1 FROM pass), EXISTS (SELECT 1 FROM registration)
            """
        typealias Row = (Bool, Bool)

        var deviceLibraryIdentifier: String
        var pushToken: String
        var passTypeIdentifier: String
        var serialNumber: String
        var now: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(deviceLibraryIdentifier)
            bindings.append(pushToken)
            bindings.append(passTypeIdentifier)
            bindings.append(serialNumber)
            bindings.append(now)
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
