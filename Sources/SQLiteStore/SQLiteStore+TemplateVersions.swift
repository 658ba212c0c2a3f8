public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: TemplateVersionStore {
    public func saveTemplateVersion(name: String, version: String, content: Data, now: Date) async throws -> Int {
        try await write { [tables] db in
            try db.execute(sql: """
                INSERT INTO template_versions (name, version, content, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (name, version) DO NOTHING
                """, arguments: [tables.names.templateVersionName(name), version, content, now.timeIntervalSince1970])
            // Items stored before versions were kept follow the first version their template is loaded at. Through the
            // (template, template_version) index: straight to the items without a version, none once all have one
            // (it runs whenever a template is loaded; through the template index alone it read every item of it).
            try db.execute(sql: """
                UPDATE \(tables.items) INDEXED BY \(tables.items)_template_version SET template_version = ?
                WHERE template = ? AND template_version IS NULL
                """, arguments: [version, name])
            return db.changesCount
        }
    }

    public func templateVersionContent(name: String, version: String) async throws -> Data? {
        try await read { [tables] db in
            try Data.fetchOne(db, sql: "SELECT content FROM template_versions WHERE name = ? AND version = ?",
                              arguments: [tables.names.templateVersionName(name), version])
        }
    }
}

extension SQLiteStore: TemplateVersionCounting {
    public func passCountsByTemplateVersion(template: String, passTypeIdentifier: String?) async throws
        -> [(version: String?, passes: Int)]
    {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT template_version, COUNT(*) FROM passes INDEXED BY passes_template_version
                WHERE template = ? AND (? IS NULL OR pass_type_identifier = ?) GROUP BY template_version
                """, arguments: [template, passTypeIdentifier, passTypeIdentifier]).map { (version: $0[0], passes: $0[1]) }
        }
    }
}
