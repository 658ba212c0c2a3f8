import Foundation
import Synchronization

/// The event ticket's blurred background for PNG previews, rasterized once and cached for the process.
///
/// librsvg's `feGaussianBlur` over a full-size image is most of a PNG preview's cost, and its result is so smooth that
/// half a pixel per point holds all of it. So the PNG path draws the image and blur once, through the same librsvg
/// path, at 0.5 pixel per point, and embeds that small PNG stretched over the same area instead of the filter; the
/// SVG output keeps the filter.
enum BlurredBackground {
    /// Pixels per point of the cached image (the blur's 10-point standard deviation becomes 5 pixels).
    static let pixelsPerPoint = 0.5
    /// Cached images kept before the cache starts over.
    static let capacity = 16

    private static let cache = Cache()

    /// A `data:image/png` URI of `image` scaled to fill `width`×`height` points (centred, cropped) and blurred with a
    /// 10-point Gaussian, faded to transparent at its edges as the SVG filter does.
    static func uri(image: String, width: Double, height: Double) throws -> String {
        let key = Key(image: image, width: width, height: height)
        if let cached = cache[key] { return cached }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" \
            width="\(SVGCanvas.number(width))" height="\(SVGCanvas.number(height))" \
            viewBox="0 0 \(SVGCanvas.number(width)) \(SVGCanvas.number(height))">\
            <defs><filter id="blur" x="0" y="0" width="1" height="1"><feGaussianBlur stdDeviation="10"/></filter></defs>\
            <image x="0" y="0" width="\(SVGCanvas.number(width))" height="\(SVGCanvas.number(height))" \
            preserveAspectRatio="xMidYMid slice" filter="url(#blur)" xlink:href="\(image)"/></svg>
            """
        let size = PassPreviewRenderer.pixelSize(width: width, height: height, scale: pixelsPerPoint)
        let png = try SVGRasterizer.png(svg: svg, width: size.width, height: size.height)
        let uri = "data:image/png;base64," + png.base64EncodedString()
        cache[key] = uri
        return uri
    }

    struct Key: Hashable {
        var image: String
        var width: Double
        var height: Double
    }

    /// A lock-guarded dictionary shared by every renderer.
    private final class Cache: Sendable {
        private let entries = Mutex<[Key: String]>([:])

        subscript(key: Key) -> String? {
            get { entries.withLock { $0[key] } }
            set {
                entries.withLock { entries in
                    if entries.count >= BlurredBackground.capacity { entries.removeAll() }
                    entries[key] = newValue
                }
            }
        }
    }
}
