public import Foundation

/// Why a file given by path could not be read, in words a person can act on.
public enum FileReading {
    /// "file not found or unreadable" when nothing is there, "is a folder, not a file" for a folder, else that it
    /// cannot be read.
    /// - Parameters:
    ///   - path: The path given.
    ///   - what: What the file is to the command (`file`, `data file`, `rows file`).
    public static func problem(at path: String, what: String = "file") -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "\(what) not found or unreadable" }
        if isFolder.boolValue { return "is a folder, not a \(what)" }
        return "\(what) cannot be read (no permission to read it, or not a regular file)"
    }
}
