import Foundation
import ImageCore

/// Why a file could not be decoded. Cases are split by who must act.
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input breaks its format's specification. `offset` is the byte offset where the
    /// problem was found, when known; `reason` says what rule was broken and with what values.
    case malformed(ContainerFormat, reason: String, offset: Int?)
    /// The input ended before the decoder had what it needed.
    case truncated(ContainerFormat, reason: String, offset: Int?)
    /// The input is valid but uses a feature imglab does not decode (12-bit JPEG, JPEG-LS…).
    case unsupported(ContainerFormat, feature: String)
    /// Decoding would exceed a limit of ``DecodeLimits``; nothing large was allocated.
    case limitExceeded(LimitKind, requested: Int, allowed: Int)
    /// The bytes match no known container.
    case unknownFormat(signature: [UInt8])
    /// The file could not be read.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let f, let reason, let offset):
            return "malformed \(f.rawValue.uppercased()): \(reason)\(offset.map { " (at byte \($0))" } ?? "")"
        case .truncated(let f, let reason, let offset):
            return "truncated \(f.rawValue.uppercased()): \(reason)\(offset.map { " (at byte \($0))" } ?? "")"
        case .unsupported(let f, let feature):
            return "unsupported \(f.rawValue.uppercased()) feature: \(feature)"
        case .limitExceeded(.bytes, let requested, let allowed):
            return "memory budget exceeded: \(ByteCountDescription.text(requested)) needed, \(ByteCountDescription.text(allowed)) allowed (--max-memory)"
        case .limitExceeded(let kind, let requested, let allowed):
            return "\(kind.rawValue) limit exceeded: \(requested) requested, \(allowed) allowed"
        case .unknownFormat(let sig):
            // An ISO base media file (ftyp at 4) of a brand imglab does not read: say which brand.
            if sig.count >= 12, sig[4..<8].elementsEqual("ftyp".utf8) {
                let brand = String(decoding: sig[8..<12].map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
                return "an ISO base media file of brand '\(brand)', which imglab does not read (HEIF: heic, heix, mif1, msf1; "
                    + "AVIF: avif, avis)"
            }
            return "not a PNG, JPEG, GIF, TIFF, BMP, WebP, HEIF or AVIF file (starts with "
                + "\(sig.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")))"
        case .io(let path, let reason):
            return "cannot read \(path): \(reason)"
        }
    }
}

/// Which limit a ``DecodeError/limitExceeded(_:requested:allowed:)`` refers to.
public enum LimitKind: String, Sendable, Equatable {
    /// Pixels of one frame (width × height).
    case pixels
    /// Width or height on its own.
    case dimension
    /// Bytes allocated while decoding, all frames included.
    case bytes
    /// Number of animation frames.
    case frames
}

/// Why an image could not be encoded.
public enum EncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The container cannot store this pixel format; `suggestion` names one it can.
    case unsupportedFormat(ContainerFormat, PixelFormat, suggestion: String)
    /// An option is out of range (quality 0…100 and so on).
    case invalidOption(String)
    /// The C library reported an error.
    case library(ContainerFormat, String)
    /// Writing the file failed.
    case io(path: String, reason: String)
    /// The path holds something other than a regular file (`found`: "a FIFO", "a symbolic link",
    /// …), which ``OutputFile`` never replaces.
    case refusedTarget(path: String, found: String)
    /// The path of a report folder holds something imglab may not replace (``OutputFolder``):
    /// a file, a FIFO, a folder of the user's.
    case refusedFolder(path: String, found: String)

    public var description: String {
        switch self {
        case .refusedTarget(let p, let found):
            return "refusing to write \(p): it is \(found); imglab writes only new paths and regular files (docs/safe-writes.md)"
        case .refusedFolder(let p, let found):
            return "refusing to write \(p): it is \(found); a report goes into a new or empty folder, or one imglab "
                + "wrote (docs/safe-writes.md)"
        case .unsupportedFormat(let c, let f, let s):
            return "\(c.rawValue.uppercased()) cannot store \(f); \(s)"
        case .invalidOption(let s): return "invalid encoder option: \(s)"
        case .library(let c, let s): return "\(c.rawValue.uppercased()) encoder: \(s)"
        case .io(let p, let r): return "cannot write \(p): \(r)"
        }
    }
}



/// Byte counts in messages: exact below 1 MiB, else in MiB with one decimal.
enum ByteCountDescription {
    static func text(_ bytes: Int) -> String {
        if bytes == .max { return "more than can be counted" }
        if bytes < 1 << 20 { return "\(bytes) bytes" }
        return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
