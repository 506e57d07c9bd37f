import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// The oracle against arithmetic: sizes by the declared rule, exact area coverage, light space,
/// composition, and the orientation scene's distinguishability (acceptance 3).
@Suite("Oracle")
struct OracleTests {
    static func place(_ op: LabOperation, _ w: Int = 48, _ h: Int = 32) throws -> OraclePlacement {
        try OracleGeometry.placement(of: op, width: w, height: h)
    }

    static func render(_ scene: Scene, _ op: LabOperation, _ w: Int = 48, _ h: Int = 32, reduction: ChannelReduction = .none) throws -> OracleImage {
        let p = try place(op, w, h)
        return Oracle.render(canvasWidth: w, canvasHeight: h, placement: p) { x, y in
            reduction.apply(scene.color(x: x, y: y, width: Double(w), height: Double(h)))
        }
    }

    @Test("output sizes follow the declared rule on a 48 × 32 canvas", arguments: [
        (LabOperation.orient, 48, 32),
        (.resize(width: 24, height: 24, mode: .aspectFit), 24, 16),            // 32 · 24 / 48 = 16
        (.resize(width: 20, height: 20, mode: .aspectFillWithoutCrop), 30, 20), // 48 · 20 / 32 = 30
        (.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)), 20, 20),
        (.resize(width: 31, height: 17, mode: .scaleToFill), 31, 17),
        (.squareThumbnail(size: 24, border: 2, cornerRadius: 6), 28, 28),       // 24 + 2 · 2
        (.crop(x: 4.5, y: 2.25, width: 19.5, height: 13.5), 20, 14),            // [4, 24) × [2, 16)
        (.roundedCorners(radius: 6, border: 2), 52, 36),
        (.transparentBorder(width: 3), 54, 38),
        (.maxPixelSize(40), 40, 27),                                            // 32 · 40 / 48 = 26.67 → 27
        (.maxPixelSize(60), 48, 32),                                            // never enlarged
    ])
    func outputSizes(_ op: LabOperation, _ w: Int, _ h: Int) throws {
        let p = try Self.place(op)
        #expect(p.width == w && p.height == h)
    }

    @Test("aspect fill shows the anchored part of the canvas")
    func fillAnchors() throws {
        let topLeft = try Self.place(.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0, anchorY: 0)))
        let bottomRight = try Self.place(.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 1, anchorY: 1)))
        let centre = try Self.place(.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)))
        #expect(topLeft.source == (0, 0, 32, 32))
        #expect(bottomRight.source == (16, 0, 32, 32))
        #expect(centre.source == (8, 0, 32, 32))
    }

    @Test("a crop outside the canvas and an empty box are errors, not images")
    func badGeometry() {
        #expect(throws: OracleGeometryError.self) { try Self.place(.crop(x: 60, y: 0, width: 5, height: 5)) }
        #expect(throws: OracleGeometryError.self) { try Self.place(.resize(width: 0, height: 5, mode: .scaleToFill)) }
    }

    @Test("supersampling: 16 points per axis at identity, 16 per source pixel when shrinking, at most 64")
    func samplesPerAxis() throws {
        #expect(Oracle.samplesPerAxis(for: try Self.place(.orient)) == 16)
        #expect(Oracle.samplesPerAxis(for: try Self.place(.resize(width: 24, height: 16, mode: .scaleToFill))) == 32)
        #expect(Oracle.samplesPerAxis(for: try Self.place(.resize(width: 4, height: 4, mode: .scaleToFill))) == 64)
    }

    @Test("flat scenes render exactly: the orientation scene's corner cells are their sRGB colours")
    func flatIsExact() throws {
        let image = try Self.render(.orientation, .orient)
        let tl = image.encodedPixel(x: 0, y: 0), br = image.encodedPixel(x: 47, y: 31)
        #expect(abs(tl.red * 255 - 220) < 1e-9 && abs(tl.green * 255 - 30) < 1e-9 && abs(tl.blue * 255 - 30) < 1e-9 && tl.alpha == 1)
        #expect(abs(br.red * 255 - 30) < 1e-9 && abs(br.green * 255 - 60) < 1e-9 && abs(br.blue * 255 - 200) < 1e-9)
    }

    @Test("a 1-pixel checker halved in linear light is the linear ½ gray beside it (sRGB ≈ 188)")
    func checkerShrinksToLinearHalf() throws {
        let image = try Self.render(.checkerAndGray, .resize(width: 24, height: 16, mode: .scaleToFill))
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(abs(image.pixels[i] - 0.5) < 1e-12 && image.pixels[i + 3] == 1)
        }
        #expect(Int((SRGBTransfer.fromLinear(0.5) * 255).rounded()) == 188)
    }

    @Test("rounded corners cover w·h − (4 − π)·r² of a constant scene, and nothing outside the arcs")
    func roundedCornerArea() throws {
        let image = try Self.render(.constant, .roundedCorners(radius: 8, border: 0))
        let area = stride(from: 3, to: image.pixels.count, by: 4).reduce(0) { $0 + image.pixels[$1] }
        let exact = 48.0 * 32 - (4 - Double.pi) * 64
        #expect(abs(area - exact) < 2, "covered area \(area), exact \(exact)")
        #expect(image.encodedPixel(x: 0, y: 0).alpha == 0)        // (1, 1) is 9.9 px from the arc's centre (8, 8)
        #expect(image.encodedPixel(x: 24, y: 0).alpha == 1)       // the straight top edge
        let c = image.encodedPixel(x: 1, y: 3)                    // partly covered: colour unchanged, not darkened
        #expect(c.alpha > 0 && c.alpha < 1 && abs(c.red * 255 - 200) < 1e-9 && abs(c.blue * 255 - 40) < 1e-9)
    }

    @Test("a transparent border is α = 0, never black, and leaves the inside exact")
    func transparentBorder() throws {
        let image = try Self.render(.constant, .transparentBorder(width: 3))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.encodedPixel(x: x, y: y)
                let inside = (3..<51).contains(x) && (3..<35).contains(y)
                if inside { #expect(p.alpha == 1 && abs(p.green * 255 - 120) < 1e-9) } else { #expect(p.alpha == 0) }
            }
        }
    }

    @Test("a thumbnail's border and corners are transparent and its content square is opaque in the middle")
    func thumbnailCoverage() throws {
        let image = try Self.render(.landscape, .squareThumbnail(size: 24, border: 2, cornerRadius: 6), reduction: .opaque)
        #expect(image.encodedPixel(x: 0, y: 14).alpha == 0)
        #expect(image.encodedPixel(x: 2, y: 2).alpha == 0)
        #expect(image.encodedPixel(x: 14, y: 14).alpha == 1)
        #expect(image.encodedPixel(x: 14, y: 2).alpha == 1)
    }

    @Test("a constant scene stays constant under every operation of the pool", arguments: CorpusProfile.operationPool(scale: 1))
    func constantInvariance(_ op: LabOperation) throws {
        let image = try Self.render(.constant, op)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.encodedPixel(x: x, y: y)
                guard p.alpha > 0 else { continue }
                #expect(abs(p.red * 255 - 200) < 1e-9 && abs(p.green * 255 - 120) < 1e-9 && abs(p.blue * 255 - 40) < 1e-9)
            }
        }
    }

    @Test("animation composition follows each dispose and blend op")
    func animationComposition() {
        func plan(_ s: AnimationStyle) -> AnimationPlan { AnimationPlan(scene: .orientation, style: s, width: 48, height: 32) }
        let scene = Scene.orientation.color(x: 9.5, y: 8.5, width: 48, height: 32)
        // (9.5, 8.5) is in frame 1's region (8, 8, 16, 16), on the sprite's white ring.
        #expect(plan(.apng(.none, .over)).canvas(2, x: 9.5, y: 8.5) == .sRGB(255, 255, 255))
        #expect(plan(.apng(.background, .over)).canvas(2, x: 9.5, y: 8.5).alpha == 0)
        #expect(plan(.apng(.previous, .over)).canvas(2, x: 9.5, y: 8.5) == scene)
        // (16.5, 16.5) is in the sprite's hole: over shows the scene, source makes it transparent.
        let hole = Scene.orientation.color(x: 16.5, y: 16.5, width: 48, height: 32)
        #expect(plan(.apng(.none, .over)).canvas(1, x: 16.5, y: 16.5) == hole)
        #expect(plan(.apng(.none, .source)).canvas(1, x: 16.5, y: 16.5).alpha == 0)
        #expect(plan(.gif(.none)).canvas(1, x: 16.5, y: 16.5) == hole)
    }

    @Test("the orientation scene's eight dihedral images are pairwise distinguishable at 16 × 16 (luma SSIM < 0.5)")
    func orientationSceneDistinguishable() throws {
        let image = Oracle.render(canvasWidth: 16, canvasHeight: 16, placement: .identity(width: 16, height: 16)) { x, y in
            Scene.orientation.color(x: x, y: y, width: 16, height: 16)
        }
        let upright = try image.straightFloatBitmap().converted(to: .rgb8)
        func luma(_ b: Bitmap) -> [Double] {
            var out: [Double] = []
            for i in 0..<(16 * 16) {
                let r = Double(b.bytes[i * 3]), g = Double(b.bytes[i * 3 + 1]), bl = Double(b.bytes[i * 3 + 2])
                out.append(0.299 * r + 0.587 * g + 0.114 * bl)
            }
            return out
        }
        let views = Orientation.allCases.map { luma($0.apply(to: upright)) }
        var worst = 0.0
        for i in 0..<8 {
            for j in (i + 1)..<8 {
                let s = LumaSSIM.ssim(views[i], views[j], width: 16, height: 16)
                worst = max(worst, s)
                #expect(s < 0.5, "orientations \(i + 1) and \(j + 1): SSIM \(s)")
            }
        }
        print("orientation scene at 16×16: largest pairwise luma SSIM \(worst)")
    }

    /// `Tests/Fixtures/reference/ssim` of this checkout.
    static let ssimReference = QuickCorpus.packageRoot.appendingPathComponent("Tests/Fixtures/reference/ssim")

    @Test("the test's SSIM matches the reference values of Tests/Fixtures/reference/ssim (P02 blur, P03 shift)")
    func ssimMatchesReference() throws {
        let folder = Self.ssimReference
        func plane(_ name: String) throws -> [Double] {
            let b = try ImageCodecs.decode(contentsOf: folder.appendingPathComponent(name).path).bitmap
            return b.bytes.map(Double.init)
        }
        let base = try plane("base_gray64x48.png")
        // ssim_y column of reference_metrics.csv (scikit-image 0.26 = Wang's ssim_index.m).
        #expect(abs(LumaSSIM.ssim(base, try plane("P02_gray64x48_blur3.png"), width: 64, height: 48) - 0.782181383838) < 1e-9)
        #expect(LumaSSIM.ssim(base, base, width: 64, height: 48) == 1)
    }
}
