/// The image containers imglab reads and writes, recognised by content, never by file name.
public enum ContainerFormat: String, CaseIterable, Hashable, Sendable, Codable {
    case png, jpeg, gif, tiff, bmp, webp, heif, avif

    /// One row of the signature table: bytes that must match at offset 0.
    private static let signatures: [(bytes: [UInt8], format: ContainerFormat)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
        ([0xFF, 0xD8, 0xFF], .jpeg),
        (Array("GIF87a".utf8), .gif),
        (Array("GIF89a".utf8), .gif),
        ([0x49, 0x49, 0x2A, 0x00], .tiff),  // "II*\0", little-endian TIFF
        ([0x4D, 0x4D, 0x00, 0x2A], .tiff),  // "MM\0*", big-endian TIFF
        ([0x49, 0x49, 0x2B, 0x00], .tiff),  // BigTIFF, little-endian
        ([0x4D, 0x4D, 0x00, 0x2B], .tiff),  // BigTIFF, big-endian
        (Array("BM".utf8), .bmp),
    ]

    /// Every container with its name (`png`, `jpeg`, …), for command-line choices.
    public static var byName: [(String, ContainerFormat)] { allCases.map { ($0.rawValue, $0) } }

    /// Other names a command line accepts for a container: its usual file extensions.
    public static let aliases: [(String, ContainerFormat)] = [("jpg", .jpeg), ("jpe", .jpeg), ("jfif", .jpeg), ("tif", .tiff),
                                                              ("apng", .png), ("heic", .heif), ("hif", .heif)]

    /// Bytes of a file's start that ``init(sniffing:)`` reads.
    public static let sniffLength = 20

    /// Recognises the container from the first bytes of a file (``sniffLength`` of them);
    /// `nil` if none matches. After the signature table, a headerless DIB (a BMP without its
    /// file header, ``BMPHeaderlessDIB``) is recognised by its header-size field, WebP by `RIFF`
    /// at 0 and `WEBP` at 8, HEIF and AVIF by `ftyp` at 4 and their brands (``HEIFStructure``).
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(Self.sniffLength))
        if let match = Self.signatures.first(where: { head.starts(with: $0.bytes) }) {
            self = match.format
        } else if WebPStructure.matches(head) {
            self = .webp
        } else if let family = HEIFStructure.container(of: head) {
            self = family
        } else if BMPHeaderlessDIB.matches(head) {
            self = .bmp
        } else {
            return nil
        }
    }

    /// Whether the container stores premultiplied alpha as it is: TIFF (associated alpha,
    /// ExtraSamples 1), HEIF and AVIF (a `prem` reference). The others store straight alpha (PNG,
    /// GIF, BMP, WebP) or none (JPEG), so their encoders divide premultiplied colours by alpha.
    public var storesPremultipliedAlpha: Bool { self == .tiff || self == .heif || self == .avif }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .gif: return "gif"
        case .tiff: return "tif"
        case .bmp: return "bmp"
        case .webp: return "webp"
        case .heif: return "heic"
        case .avif: return "avif"
        }
    }

    /// The format for a file extension (case-insensitive), for choosing an encoder from an output path.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "png", "apng": self = .png
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "bmp", "dib": self = .bmp
        case "webp": self = .webp
        case "heic", "heif", "hif": self = .heif
        case "avif": self = .avif
        default: return nil
        }
    }
}
