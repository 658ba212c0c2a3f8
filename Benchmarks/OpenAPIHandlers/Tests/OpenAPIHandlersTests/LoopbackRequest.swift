import Foundation

/// One HTTP request sent with curl to a loopback port, and what came back, less the `Date` header.
///
/// curl runs as a subprocess writing headers and body to files, and the test awaits its exit without blocking a
/// thread, so the servers under test keep Swift's cooperative threads.
struct LoopbackAnswer: Equatable, CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: Data

    var description: String { "\(status) \(headers.sorted { $0.key < $1.key }) \(body.count) bytes" }

    static func fetch(
        port: Int, path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil
    ) async throws -> LoopbackAnswer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let headerFile = folder.appendingPathComponent("headers"), bodyFile = folder.appendingPathComponent("body")
        var arguments = ["-s", "--max-time", "60", "-X", method, "-D", headerFile.path, "-o", bodyFile.path]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + arguments
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else { throw CurlFailure(status: status, path: path) }
        let lines = try String(contentsOf: headerFile, encoding: .utf8).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let code = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { throw CurlFailure(status: -1, path: path) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            guard name != "date" else { continue }
            fields[name, default: ""] += line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let data = (try? Data(contentsOf: bodyFile)) ?? Data()
        return LoopbackAnswer(status: code, headers: fields, body: data)
    }
}

/// curl failed or wrote no status line.
struct CurlFailure: Error, CustomStringConvertible {
    var status: Int32
    var path: String
    var description: String { "curl exited with \(status) for \(path)" }
}
