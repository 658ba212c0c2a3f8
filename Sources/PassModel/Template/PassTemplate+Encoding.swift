public import Foundation

extension PassTemplate {
    /// Encodes a pass as the `pass.json` to put in a bundle, re-encoding only what differs from the template.
    ///
    /// The template's members were encoded once with `JSONEncoder` when it was loaded: top-level keys, and
    /// inside the style key each field. For `pass`, each typed value is compared with the template's and its
    /// encoding reused when they are equal; the others are encoded with `JSONEncoder`. The result is compact
    /// JSON with keys sorted, slashes unescaped, unknown keys written back: the same JSON value as
    /// ``Pass/jsonData()`` gives, at a fraction of the cost for passes made with ``pass(applying:)``.
    /// Any pass can be given; one that shares nothing with the template is simply encoded in full.
    /// - Parameter pass: The pass, usually made from this template with ``pass(applying:)``.
    /// - Returns: UTF-8 JSON text.
    /// - Throws: ``PassModelError`` `invalidJSON` when a number cannot be written (infinite or NaN), with the
    ///   same message as ``Pass/jsonData()``.
    public func passJSON(for pass: Pass) throws -> Data {
        if let jsonCache, let data = try? jsonCache.encode(pass) { return data }
        // Without a cache, or when a value cannot be encoded: a fragment encoded alone does not know its
        // path, the full encoding names it in the error.
        return try JSONCoding.encode(pass, sortedKeys: true, prettyPrinted: false)
    }
}
