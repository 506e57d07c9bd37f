import ImageCorpus
import ImageCore

extension Mutant {
    /// The aspect-fill crop one output pixel off its anchor: the crop origin rounded the wrong
    /// way (or the anchor's offset computed with an extra pixel), so the content sits one pixel
    /// left or up of where it should.
    static let cropOffCentre = Mutant(
        id: "crop-off-centre", topic: "crop-anchor",
        title: "aspect-fill crop off its anchor by one output pixel",
        history: "Fill and thumbnail crops are where anchor arithmetic goes wrong (B23: Kingfisher#645, Nuke#886, AlamofireImage#164); UIImage+Resize's thumbnail computes the crop origin with C's round(), so a 1000×333 image gives crop x = round(100.5) = 101, not the centred 100.5 (anchors §4.1). The mutant moves every aspect-fill crop of the resize operation one output pixel further along the anchor axis (back by one where that would leave the image); the square thumbnail crops through its own, correct, path.",
        references: ["B23"], bugClass: "pixel-shift",
        triggers: { pair in
            guard let op = pair.entry.operation.operation else { return false }
            let box: (Int, Int)
            switch op {
            case .resize(let w, let h, .aspectFill): box = (w, h)
            default: return false
            }
            return CropAnchor.excess(width: pair.record.displayWidth, height: pair.record.displayHeight, box: box) != (0, 0)
        },
        make: { base in
            MutantResizer(name: "crop-off-centre(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let display = source.displaySize
                switch operation {
                case .resize(let w, let h, .aspectFill(let ax, let ay)):
                    let (ex, ey) = CropAnchor.excess(width: display.width, height: display.height, box: (w, h))
                    let moved = LabOperation.resize(width: w, height: h, mode: .aspectFill(anchorX: CropAnchor.moved(ax, excess: ex), anchorY: CropAnchor.moved(ay, excess: ey)))
                    return try base.apply(moved, to: source)
                default:
                    return try base.apply(operation, to: source)
                }
            }
        })
}

/// The arithmetic of ``Mutant/cropOffCentre``.
enum CropAnchor {
    /// How many output pixels the aspect-filled image exceeds the box by, per axis: the cover
    /// size (exact rational, rounded half up as the resizer's geometry) minus the box.
    static func excess(width: Int, height: Int, box: (Int, Int)) -> (Int, Int) {
        let (bw, bh) = box
        // Cover: the side that is relatively shorter than the box is scaled to the box.
        if width * bh >= height * bw {
            let cover = (width * bh * 2 + height) / (2 * height)
            return (max(cover - bw, 0), 0)
        }
        let cover = (height * bw * 2 + width) / (2 * width)
        return (0, max(cover - bh, 0))
    }

    /// The anchor moved by one output pixel of `excess` (forward, or back when forward would
    /// leave the image); unchanged when there is no excess.
    static func moved(_ anchor: Double, excess: Int) -> Double {
        guard excess > 0 else { return anchor }
        let offset = anchor * Double(excess)
        let next = offset + 1 <= Double(excess) ? offset + 1 : offset - 1
        return next / Double(excess)
    }
}
