import ImageCore

/// The APNG output buffer: frames are drawn onto a straight-alpha RGBA canvas (8 or 16 bits)
/// and disposed of as the APNG spec says.
///
/// - The canvas starts fully transparent black.
/// - `blend_op` SOURCE replaces the region's pixels; OVER composites with straight alpha,
///   per component `αo = αs + αd(1 − αs)`, `Co = (Cs·αs + Cd·αd·(1 − αs)) / αo`
///   (0 when `αo` = 0), each rounded half up to the component range.
/// - After the frame is shown, `dispose_op` NONE keeps the canvas, BACKGROUND clears the
///   region to transparent black, PREVIOUS restores the canvas to what it was before the
///   frame; on the first frame PREVIOUS is treated as BACKGROUND (spec).
struct APNGCompositor: Sendable {
    /// The canvas before the next frame is drawn.
    private(set) var canvas: Bitmap
    private var drawnFrames = 0

    /// A transparent canvas of `width` × `height` in `format` (``PixelFormat/rgba8`` or ``PixelFormat/rgba16``).
    init(width: Int, height: Int, format: PixelFormat) {
        let rowBytes = format.minimumBytesPerRow(width: width)
        canvas = Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowBytes,
                        bytes: [UInt8](repeating: 0, count: rowBytes * height))
    }

    /// Draws `frame` (already in the canvas format) at `region`, returns the canvas as shown,
    /// then applies `disposal` for the next frame. The region must lie inside the canvas.
    mutating func draw(_ frame: Bitmap, region: PixelRect, blend: FrameBlend, disposal: FrameDisposal) -> Bitmap {
        let before = canvas
        let bytesPerSample = canvas.format.bitsPerComponent / 8
        let pixelBytes = 4 * bytesPerSample
        let maxValue = Double(canvas.format.maxComponentValue)
        let canvasRow = canvas.bytesPerRow, frameRow = frame.bytesPerRow
        frame.bytes.withUnsafeBufferPointer { source in
            canvas.bytes.withUnsafeMutableBufferPointer { target in
                func sample(_ buffer: UnsafeBufferPointer<UInt8>, _ i: Int) -> Double {
                    bytesPerSample == 1 ? Double(buffer[i]) : Double(Int(buffer[i]) << 8 | Int(buffer[i + 1]))
                }
                func store(_ i: Int, _ v: Double) {
                    let q = Int((v * maxValue + 0.5).rounded(.down).clamped(0, maxValue))
                    if bytesPerSample == 1 { target[i] = UInt8(q) } else { target[i] = UInt8(q >> 8); target[i + 1] = UInt8(q & 0xFF) }
                }
                for y in 0..<region.height {
                    let s = y * frameRow, t = (region.y + y) * canvasRow + region.x * pixelBytes
                    if blend == .source {
                        for i in 0..<(region.width * pixelBytes) { target[t + i] = source[s + i] }
                        continue
                    }
                    for x in 0..<region.width {
                        let sp = s + x * pixelBytes, tp = t + x * pixelBytes
                        let alphaOffset = 3 * bytesPerSample
                        let sa = sample(source, sp + alphaOffset) / maxValue
                        if sa == 0 { continue }
                        if sa == 1 {
                            for i in 0..<pixelBytes { target[tp + i] = source[sp + i] }
                            continue
                        }
                        let da = sample(UnsafeBufferPointer(target), tp + alphaOffset) / maxValue
                        let outAlpha = sa + da * (1 - sa)
                        for c in 0..<3 {
                            let cs = sample(source, sp + c * bytesPerSample) / maxValue
                            let cd = sample(UnsafeBufferPointer(target), tp + c * bytesPerSample) / maxValue
                            store(tp + c * bytesPerSample, (cs * sa + cd * da * (1 - sa)) / outAlpha)
                        }
                        store(tp + alphaOffset, outAlpha)
                    }
                }
            }
        }
        let shown = canvas
        var dispose = disposal
        if dispose == .previous && drawnFrames == 0 { dispose = .background }
        switch dispose {
        case .none, .unspecified:
            break
        case .background:
            for y in region.y..<(region.y + region.height) {
                let start = y * canvasRow + region.x * pixelBytes
                canvas.bytes.replaceSubrange(start..<(start + region.width * pixelBytes),
                                             with: repeatElement(0, count: region.width * pixelBytes))
            }
        case .previous:
            canvas = before
        }
        drawnFrames += 1
        return shown
    }
}
