import ImageCore
import ImageCodecs

/// The oracle of a JPEG thumbnail made the way the ImageIO contract allows
/// (``ScaledJPEGDecode``): the file decoded by libjpeg at the DCT scale 1/d of the contract's
/// rule, then resampled onto the output by ``KernelOracle`` with a design (the box in linear
/// light for the ideal; a resizer's declared kernel for the kernel-exact oracle), exactly as
/// it renders from a full decode.
///
/// libjpeg's scaled inverse DCT averages each d × d block in the stored (gamma-encoded, YCbCr)
/// values, so on fine high-contrast detail this start is darker than the linear-light ideal by
/// an amount no later resampling takes back; a resizer that keeps the contract can be that far
/// from the full decode's oracle and exactly right against this one. The scaled image holds
/// ⌈size/d⌉ pixels of which only size/d are image (the last is libjpeg's edge-padded block), so
/// the placement's source rectangle is the full one divided by d.
public enum ScaledThumbnailOracle {
    /// The oracle and the denominator it decoded at, or `nil` when the contract gives the
    /// operation no reduced scale (not a JPEG `maxPixelSize`, or a denominator of 1).
    /// - Parameters:
    ///   - file: the JPEG file's bytes;
    ///   - placement: the operation's placement on the upright full-size source (``OracleGeometry``);
    ///   - design: the kernel, light space and edge rule (the box in linear light by default).
    /// - Throws: ``DecodeError`` when the file cannot be decoded at that scale; the errors of
    ///   ``KernelOracle/render(source:frame:placement:design:)``.
    public static func render(file: [UInt8], operation: LabOperation, placement: OraclePlacement,
                              design: KernelOracle.Design = KernelOracle.Design(kernel: .box)) throws -> (image: Image, denominator: Int)? {
        guard ContainerFormat(sniffing: file) == .jpeg else { return nil }
        let header = try ImageCodecs.readHeader(file)
        guard ScaledJPEGDecode.mayApply(to: operation, container: ContainerFormat.jpeg.rawValue, width: header.width, height: header.height,
                                        orientation: header.orientation) else { return nil }
        let target = header.orientation.swapsDimensions ? (width: placement.height, height: placement.width) : (width: placement.width, height: placement.height)
        let d = ScaledJPEGDecode.denominator(width: header.width, height: header.height, target: target)
        guard d > 1 else { return nil }
        let scaled = try ImageCodecs.decode(file, options: DecodeOptions(jpegScaleDenominator: d))
        let s = placement.source, scale = Double(d)
        let onScaled = OraclePlacement(width: placement.width, height: placement.height, content: placement.content,
                                       source: (s.x / scale, s.y / scale, s.width / scale, s.height / scale),
                                       cornerRadius: placement.cornerRadius)
        let oracle = try KernelOracle.render(source: scaled, placement: onScaled, design: design)
        return (Image(bitmap: oracle.bitmap16()), d)
    }
}
