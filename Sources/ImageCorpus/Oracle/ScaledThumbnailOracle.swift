import ImageCore
import ImageCodecs

/// The oracle of a JPEG or still WebP thumbnail made the way the ImageIO contract allows
/// (``ScaledDecode``): the file decoded at the scale 1/d of the contract's rule (by libjpeg in
/// the DCT domain, or by libwebp's rescaler), then resampled onto the output by ``KernelOracle``
/// with a design (the box in linear light for the ideal; a resizer's declared kernel for the
/// kernel-exact oracle), exactly as it renders from a full decode.
///
/// libjpeg's scaled inverse DCT averages each d × d block in the stored (gamma-encoded, YCbCr)
/// values, and libwebp's rescaler averages the premultiplied gamma-encoded samples alike, so on
/// fine high-contrast detail this start is darker than the linear-light ideal by an amount no
/// later resampling takes back; a resizer that keeps the contract can be that far from the full
/// decode's oracle and exactly right against this one. A JPEG's scaled image holds ⌈size/d⌉
/// pixels of which only size/d are image (the last is libjpeg's edge-padded block), so the
/// placement's source rectangle is the full one divided by d; libwebp maps the whole picture onto
/// its ⌈size/d⌉ pixels, so there it is scaled by their ratio.
public enum ScaledThumbnailOracle {
    /// The oracle and the denominator it decoded at, or `nil` when the contract gives the
    /// operation no reduced scale (not a JPEG or still WebP `maxPixelSize`, or a denominator of 1).
    /// - Parameters:
    ///   - file: the JPEG or WebP file's bytes;
    ///   - placement: the operation's placement on the upright full-size source (``OracleGeometry``);
    ///   - design: the kernel, light space and edge rule (the box in linear light by default).
    /// - Throws: ``DecodeError`` when the file cannot be decoded at that scale; the errors of
    ///   ``KernelOracle/render(source:frame:placement:design:)``.
    public static func render(file: [UInt8], operation: LabOperation, placement: OraclePlacement,
                              design: KernelOracle.Design = KernelOracle.Design(kernel: .box)) throws -> (image: Image, denominator: Int)? {
        guard let container = ContainerFormat(sniffing: file), container == .jpeg || container == .webp else { return nil }
        let header = try ImageCodecs.readHeader(file)
        guard ScaledDecode.mayApply(to: operation, container: container.rawValue, width: header.width, height: header.height,
                                    orientation: header.orientation, frames: header.frameCount) else { return nil }
        let target = header.orientation.swapsDimensions ? (width: placement.height, height: placement.width) : (width: placement.width, height: placement.height)
        let d = ScaledDecode.denominator(width: header.width, height: header.height, target: target)
        guard d > 1 else { return nil }
        let scaled = try ImageCodecs.decode(file, options: container == .jpeg ? DecodeOptions(jpegScaleDenominator: d)
                                                                                 : DecodeOptions(webpScaleDenominator: d))
        // Upright full-size source pixels per scaled pixel, on each upright axis.
        let upright = header.orientation.displaySize(width: header.width, height: header.height)
        let uprightScaled = header.orientation.displaySize(width: scaled.width, height: scaled.height)
        let scale = container == .jpeg ? (x: Double(d), y: Double(d))
            : (x: Double(upright.width) / Double(uprightScaled.width), y: Double(upright.height) / Double(uprightScaled.height))
        let s = placement.source
        let onScaled = OraclePlacement(width: placement.width, height: placement.height, content: placement.content,
                                       source: (s.x / scale.x, s.y / scale.y, s.width / scale.x, s.height / scale.y),
                                       cornerRadius: placement.cornerRadius)
        let oracle = try KernelOracle.render(source: scaled, placement: onScaled, design: design)
        return (Image(bitmap: oracle.bitmap16()), d)
    }
}
