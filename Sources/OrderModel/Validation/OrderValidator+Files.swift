import Foundation
import PassModel

extension OrderValidator {
    /// Every image `order.json` names, with its JSON path: the merchant's logo and each line item's image.
    /// - Parameter order: The order.
    /// - Returns: `(path, file)` pairs in the order they appear.
    public static func imageReferences(in order: Order) -> [(path: String, file: String)] {
        var references: [(path: String, file: String)] = []
        if let logo = order.merchant?.logo, !logo.isEmpty { references.append(("merchant.logo", logo)) }
        for (index, item) in (order.lineItems ?? []).enumerated() {
            if let image = item.image, !image.isEmpty { references.append(("lineItems[\(index)].image", image)) }
        }
        return references
    }

    func checkFiles(_ order: Order, files: [String: Data], context: inout ValidationContext) {
        var checked: Set<String> = []
        for (path, file) in Self.imageReferences(in: order) {
            guard let data = files[file] ?? Self.localized(file, in: files) else {
                context.error(path, "\"\(file)\" is not in the bundle")
                continue
            }
            guard checked.insert(file).inserted else { continue }
            if data.count > Self.maximumImageSize {
                context.error(file, "\(data.count) bytes; an order image may have at most \(Self.maximumImageSize >> 20) MiB")
            }
            if file.lowercased().hasSuffix(".png") {
                do {
                    _ = try PNGInfo(data: data)
                } catch {
                    context.error(file, "not a readable PNG: \(error)")
                }
            } else if !file.lowercased().hasSuffix(".jpg") && !file.lowercased().hasSuffix(".jpeg") {
                context.error(path, "\"\(file)\" must be a PNG or JPEG image")
            }
        }
        for name in files.keys.sorted() where name.hasSuffix(".lproj/order.strings") {
            do {
                _ = try StringsFile(data: files[name] ?? Data(), fileName: name)
            } catch let error as PassModelError {
                context.error(name, error.reason)
            } catch {
                context.error(name, "\(error)")
            }
        }
        for name in files.keys.sorted() {
            let components = name.split(separator: "/")
            if components.count > 2 || (components.count == 2 && !components[0].hasSuffix(".lproj")) {
                context.error(name, "file inside a folder that is not an xx.lproj localization")
            }
        }
    }

    /// A localized copy of `file` (`en.lproj/logo.png`), for an image only present in localization folders.
    private static func localized(_ file: String, in files: [String: Data]) -> Data? {
        files.first { $0.key.hasSuffix(".lproj/\(file)") }?.value
    }
}
