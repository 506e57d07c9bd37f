import Foundation
import ImageCore
import ImageCodecs

/// The inputs the decoder fuzzer starts from.
public enum FuzzSeeds {
    /// Small images in every container and in several pixel formats (RGBA 8, RGB 8, gray 8,
    /// RGB 16; plain and interlaced/progressive/planar variants; palette versions for PNG, GIF,
    /// BMP and TIFF; lossy and animated WebP; lossy HEIF and AVIF, animated AVIF), made by imglab's own encoders. The same bytes on every run.
    public static func synthetic() -> [MutationFuzzer.Seed] {
        var seeds: [MutationFuzzer.Seed] = []
        let formats: [(String, PixelFormat)] = [("rgba8", .rgba8), ("rgb8", .rgb8), ("gray8", .gray8), ("rgb16", .rgb16)]
        for (name, format) in formats {
            guard let bitmap = gradient(width: 23, height: 17, format: format) else { continue }
            var image = Image(bitmap: bitmap, orientation: .right)
            image.metadata.iccProfile = nil
            for container in ContainerFormat.allCases {
                for (variant, options) in [("plain", EncodeOptions()), ("interlaced", EncodeOptions(jpegProgressive: true, interlaced: true, tiffCompression: .deflate, tiffPlanar: true, bmpTopDown: true))] {
                    if let bytes = try? ImageCodecs.encode(image, as: container, options: options) {
                        seeds.append(.init(name: "\(container.rawValue)-\(name)-\(variant)", bytes: bytes))
                    }
                }
            }
            if let bytes = try? ImageCodecs.encode(image, as: .webp, options: EncodeOptions(webpQuality: 75)) {
                seeds.append(.init(name: "webp-\(name)-lossy", bytes: bytes))
            }
            for container in [ContainerFormat.heif, .avif] {
                if let bytes = try? ImageCodecs.encode(image, as: container, options: EncodeOptions(heifQuality: 60)) {
                    seeds.append(.init(name: "\(container.rawValue)-\(name)-lossy", bytes: bytes))
                }
            }
            let frames = (0..<3).map { k in AnimationFrame(canvas: bitmap, delay: 0.1 * Double(k + 1),
                                                          region: PixelRect(x: 0, y: 0, width: 23, height: 17)) }
            for container in [ContainerFormat.webp, .avif] {
                let animated = Image(bitmap: bitmap, animation: Animation(loopCount: 2, frames: frames))
                if let bytes = try? ImageCodecs.encode(animated, as: container) {
                    seeds.append(.init(name: "\(container.rawValue)-\(name)-animated", bytes: bytes))
                }
            }
            if let indexed = try? bitmap.converted(to: .rgb8).withExactPalette(bitsPerComponent: 8) {
                for container in [ContainerFormat.png, .gif, .bmp, .tiff] {
                    if let bytes = try? ImageCodecs.encode(Image(bitmap: indexed), as: container) {
                        seeds.append(.init(name: "\(container.rawValue)-indexed", bytes: bytes))
                    }
                }
            }
        }
        // Tagged with a wide-gamut profile (Adobe RGB's primaries, gamma 2.2, made by Little CMS),
        // so mutations reach the profile readers and the colour stages (iCCP, APP2, TIFF's tag).
        if let profile = ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], gamma: 2.2),
           let bitmap = gradient(width: 23, height: 17, format: .rgb8) {
            let image = Image(bitmap: bitmap, metadata: ImageMetadata(iccProfile: profile))
            for container in [ContainerFormat.png, .jpeg, .tiff] {
                if let bytes = try? ImageCodecs.encode(image, as: container) {
                    seeds.append(.init(name: "\(container.rawValue)-rgb8-icc", bytes: bytes))
                }
            }
            // Colours stated by PNG chunks instead (cICP, cHRM, gAMA), which the colour stages turn into a profile.
            let chunks = ImageMetadata(gamma: 0.55556, chromaticities: [0.3457, 0.3585, 0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001],
                                       codingPoints: [12, 13, 0, 1])
            if let bytes = try? ImageCodecs.encode(Image(bitmap: bitmap, metadata: chunks), as: .png) {
                seeds.append(.init(name: "png-rgb8-chunks", bytes: bytes))
            }
        }
        return seeds + shapes()
    }

    /// Images of extreme shapes, one colour each (a few KB encoded), which broke the memory budget
    /// of the streamed resize: rows of 1,000,000 pixels (PNG and TIFF; the libpng writer's
    /// widest) and of 65,500 (JPEG's widest, GIF, BMP), the same as columns, and a 2000² GIF
    /// whose LZW stream is a few KB; a 16,383-pixel WebP row and column (its widest), and 16,384-pixel HEIF and AVIF
    /// ones.
    static func shapes() -> [MutationFuzzer.Seed] {
        var seeds: [MutationFuzzer.Seed] = []
        let cases: [(ContainerFormat, Int, PixelFormat)] = [(.png, 1_000_000, .rgb8), (.tiff, 1_000_000, .gray8),
                                                           (.jpeg, 65_500, .rgb8), (.gif, 65_500, .gray8), (.bmp, 65_500, .rgb8),
                                                           (.webp, 16_383, .rgb8), (.heif, 16_384, .rgb8), (.avif, 16_384, .rgb8)]
        for (container, long, format) in cases {
            for (width, height) in [(long, 1), (1, long)] {
                let size = format.minimumBytesPerRow(width: width) * height
                guard let bitmap = try? Bitmap(width: width, height: height, format: format, bytes: [UInt8](repeating: 77, count: size)),
                      let bytes = try? ImageCodecs.encode(Image(bitmap: bitmap), as: container, options: EncodeOptions(tiffCompression: .deflate))
                else { continue }
                seeds.append(.init(name: "\(container.rawValue)-\(width)x\(height)", bytes: bytes))
            }
        }
        if let bitmap = try? Bitmap(width: 2000, height: 2000, format: .gray8, bytes: [UInt8](repeating: 9, count: 4_000_000)),
           let bytes = try? ImageCodecs.encode(Image(bitmap: bitmap), as: .gif) {
            seeds.append(.init(name: "gif-2000x2000-one-colour", bytes: bytes))
        }
        return seeds
    }

    /// A gradient with a few distinct colours (posterised so palettes fit) and a transparent
    /// left edge, in `format`.
    static func gradient(width: Int, height: Int, format: PixelFormat) -> Bitmap? {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                bytes[i] = UInt8((x * 255 / (width - 1)) & 0xF0)
                bytes[i + 1] = UInt8((y * 255 / (height - 1)) & 0xC0)
                bytes[i + 2] = UInt8(((x + y) & 1) * 200)
                bytes[i + 3] = x < 3 ? 0 : 255
            }
        }
        guard let rgba = try? Bitmap(width: width, height: height, format: .rgba8, bytes: bytes) else { return nil }
        return try? rgba.converted(to: format)
    }

    /// The seeds whose bytes are one of `containers` (all of them when nil).
    public static func only(_ seeds: [MutationFuzzer.Seed], containers: [ContainerFormat]?) -> [MutationFuzzer.Seed] {
        guard let containers else { return seeds }
        return seeds.filter { ContainerFormat(sniffing: $0.bytes).map(containers.contains) ?? false }
    }

    /// The image files under `folder` (recursively, sorted by path, at most 256 KiB each,
    /// recognised by their first bytes), named by their path relative to `folder`.
    public static func files(under folder: String) -> [MutationFuzzer.Seed] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var paths: [String] = []
        while let p = walker.nextObject() as? String { paths.append(p) }
        return paths.sorted().compactMap { p in
            let full = (folder as NSString).appendingPathComponent(p)
            guard let data = FileManager.default.contents(atPath: full), data.count <= 256 << 10,
                  ContainerFormat(sniffing: [UInt8](data.prefix(ContainerFormat.sniffLength))) != nil else { return nil }
            return .init(name: p, bytes: [UInt8](data))
        }
    }
}
