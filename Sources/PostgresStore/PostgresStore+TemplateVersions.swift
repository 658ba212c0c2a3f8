public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: TemplateVersionStore {
    public func saveTemplateVersion(name: String, version: String, content: Data, now: Date) async throws -> Int {
        let (items, stored) = (tables.items, tables.templateVersionName(name))
        return try await transaction { connection in
            try await connection.query("""
                INSERT INTO template_versions (name, version, content, created_at)
                VALUES (\(stored), \(version), \(ByteBuffer(bytes: content)), \(now))
                ON CONFLICT (name, version) DO NOTHING
                """, logger: logger)
            // Items stored before versions were kept follow the first version their template is loaded at.
            let pinned = try await connection.query("""
                WITH pinned AS (
                    UPDATE \(unescaped: items) SET template_version = \(version)
                    WHERE template = \(name) AND template_version IS NULL
                    RETURNING 1
                )
                SELECT count(*) FROM pinned
                """, logger: logger).collect()
            return Int(try pinned.first?.decode(Int64.self) ?? 0)
        }
    }

    public func templateVersionContent(name: String, version: String) async throws -> Data? {
        let rows = try await rows("""
            SELECT content FROM template_versions WHERE name = \(tables.templateVersionName(name)) AND version = \(version)
            """)
        return try rows.first?.decode(Data.self)
    }
}

extension PostgresStore: TemplateVersionCounting {
    public func passCountsByTemplateVersion(template: String, passTypeIdentifier: String?) async throws
        -> [(version: String?, passes: Int)]
    {
        try await rows("""
            SELECT template_version, COUNT(*) FROM passes
            WHERE template = \(template) AND (\(passTypeIdentifier)::text IS NULL OR pass_type_identifier = \(passTypeIdentifier))
            GROUP BY template_version
            """).map { row in
            let (version, count) = try row.decode((String?, Int64).self)
            return (version: version, passes: Int(count))
        }
    }
}
