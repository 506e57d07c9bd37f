import ImageCore

/// PNG and APNG: lossless raster with 1–16-bit samples, palettes, alpha, Adam7 interlacing
/// and (APNG) animation.
///
/// Related links: PNG 3rd edition (https://www.w3.org/TR/png-3/), APNG
/// (https://wiki.mozilla.org/APNG_Specification), libpng (http://www.libpng.org/pub/png/libpng.html).
///
/// Decoding delivers pixels as stored: gray 1/2/4/8/16, gray+alpha 8/16, RGB 8/16, RGBA 8/16,
/// palette 1/2/4/8 (tRNS alphas in the palette); a gray/RGB tRNS colour key becomes an alpha
/// channel (low-bit gray widens to 8 bits). 16-bit samples are big-endian. The chunk layer,
/// metadata and APNG are read in Swift; ordinary pixel data is decoded by libpng.
public enum PNGCodec: ImageCodec {
    /// ``ContainerFormat/png`` (APNG included).
    public static let container = ContainerFormat.png

    /// Reads IHDR, the metadata chunks and acTL without decoding pixels.
    /// - Throws: ``DecodeError`` for a malformed or truncated chunk layer, or sizes over the limits.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try PNGDecoder.readHeader(bytes, options: options)
    }

    /// Decodes the image; an APNG gives every composited frame in `Image.animation`
    /// (see ``APNGDecoder`` for the policy on odd files).
    /// - Throws: ``DecodeError`` saying what is wrong and at which byte, when known.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        try PNGDecoder.decode(bytes, options: options)
    }

    /// Encodes `image` as PNG, or as APNG when `image.animation` holds more than one frame.
    ///
    /// Pixel formats PNG stores directly are written as they are: gray 1/2/4/8/16, gray+alpha
    /// 8/16, RGB 8/16, RGBA 8/16 (straight alpha last, 16-bit big-endian) and indexed 1/2/4/8
    /// (palette alphas go to tRNS). Every other format is first converted with
    /// `Bitmap.converted(to:)` to the nearest one PNG stores: premultiplied → straight,
    /// alpha first → alpha last, padding dropped, little-endian → big-endian, CMYK → RGB,
    /// float → 16-bit, 5-bit → 8-bit, alpha-only → gray+alpha with black gray.
    ///
    /// Metadata: iCCP from `metadata.iccProfile` (then no sRGB chunk, as PNG §11.3.3.5 asks),
    /// else sRGB from `metadata.sRGBIntent`; cICP, cHRM and gAMA from `metadata.codingPoints`,
    /// `chromaticities` and `gamma`; eXIf holding the orientation when it is not `.up` and
    /// `options.writeOrientation`, merged into `metadata.exif` when there is one. `options.interlaced` writes Adam7.
    /// - Throws: ``EncodeError/library(_:_:)`` when libpng fails.
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try PNGEncoder.encode(image, options: options)
    }
}
