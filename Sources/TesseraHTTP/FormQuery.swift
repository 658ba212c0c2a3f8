import Foundation
public import HummingbirdCore

extension URI {
    /// The query's parameters as HTML forms, `URLSearchParams` and most HTTP clients write them
    /// (`application/x-www-form-urlencoded`): `+` is a space, and names as well as values are percent-decoded
    /// (`field.caf%C3%A9=Row+A` is `field.café` = `Row A`). A malformed percent escape is left as it was sent.
    public var formQueryParameters: FlatDictionary<Substring, Substring> {
        guard let query, !query.isEmpty else { return .init() }
        return .init(query.split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (key: Self.formDecoded(pair)[...], value: "") }
            return (key: Self.formDecoded(pair[..<equals])[...],
                    value: Self.formDecoded(pair[pair.index(after: equals)...])[...])
        })
    }

    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
