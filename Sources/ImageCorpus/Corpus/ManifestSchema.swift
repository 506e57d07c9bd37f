/// The JSON Schema (draft 2020-12) of `manifest.json`, written beside it as `manifest.schema.json`.
public enum ManifestSchema {
    /// The schema's file name in a corpus folder.
    public static let fileName = "manifest.schema.json"

    /// The schema text.
    public static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://imglab.invalid/corpus/manifest.schema.json",
  "title": "imglab corpus manifest",
  "description": "Every case of a generated imglab corpus: the source file, what a decoder must find in it, the documents' failures (D1-D13) and bug classes (B1-B29) it exercises, and for each operation the expected output size and the oracle image(s). Written by 'imglab corpus'; verified by 'imglab corpus --check'.",
  "type": "object",
  "required": ["schema", "version", "profile", "oracle", "cases"],
  "additionalProperties": false,
  "properties": {
    "schema": { "const": "manifest.schema.json" },
    "version": { "const": 3 },
    "profile": { "enum": ["quick", "full"] },
    "oracle": {
      "description": "Conventions shared by every oracle image.",
      "type": "object",
      "required": ["storage", "pixel", "sampling", "geometry"],
      "additionalProperties": false,
      "properties": {
        "storage": { "type": "string", "description": "How oracle images are stored (16-bit straight sRGB-encoded RGBA PNG)." },
        "pixel": { "type": "string", "description": "What an oracle pixel is (linear-light area average)." },
        "sampling": { "type": "string", "description": "How the area integral is computed." },
        "geometry": { "type": "string", "description": "Where output sizes come from." }
      }
    },
    "cases": { "type": "array", "items": { "$ref": "#/$defs/case" } }
  },
  "$defs": {
    "case": {
      "type": "object",
      "required": ["id", "file", "container", "encoding", "stored", "scene", "purpose", "reduction", "width", "height",
                   "displayWidth", "displayHeight", "orientation", "scale", "frames", "pixelFormat", "lossy",
                   "documents", "bugClasses", "operations"],
      "additionalProperties": false,
      "properties": {
        "id": { "type": "string", "description": "Unique: encoding-scene-WxH[-oN][@Sx] (display size)." },
        "file": { "type": "string", "description": "Source file path relative to the corpus folder." },
        "container": { "enum": ["png", "jpeg", "gif", "tiff", "bmp"] },
        "encoding": { "type": "string", "description": "Encoding identifier, e.g. png-rgba8, jpeg-420, apng-over-previous." },
        "stored": { "type": "string", "description": "What the file stores, in the container's words." },
        "scene": { "enum": ["orientation", "colorPatches", "softAlpha", "zonePlate", "checkerAndGray", "stepEdges", "thinStrokes", "landscape", "constant", "stencil", "halo"] },
        "purpose": { "type": "string" },
        "reduction": { "enum": ["none", "opaque", "gray", "grayOpaque", "binaryAlpha"], "description": "What the pixel format cannot hold of the scene, applied before rendering." },
        "width": { "type": "integer", "minimum": 1, "description": "Stored width, pixels." },
        "height": { "type": "integer", "minimum": 1, "description": "Stored height, pixels." },
        "displayWidth": { "type": "integer", "minimum": 1, "description": "Width after the orientation is applied." },
        "displayHeight": { "type": "integer", "minimum": 1 },
        "orientation": { "type": "integer", "minimum": 1, "maximum": 8, "description": "EXIF orientation the file records (1 when the container records none)." },
        "scale": { "type": "integer", "minimum": 1, "description": "Points-to-pixels scale (2 for an @2x asset)." },
        "frames": { "type": "integer", "minimum": 1 },
        "animation": { "$ref": "#/$defs/animation" },
        "pixelFormat": { "$ref": "#/$defs/pixelFormat" },
        "tolerance": { "type": "number", "minimum": 0, "description": "Largest |difference| (0..1) of alpha and of alpha times the sRGB-encoded colour between the decoded file and the identity oracle. Absent for lossy storage." },
        "lossy": { "type": "boolean" },
        "documents": { "type": "array", "items": { "type": "string", "pattern": "^D([1-9]|1[0-3])$" } },
        "bugClasses": { "type": "array", "items": { "type": "string", "pattern": "^B([1-9]|1[0-9]|2[0-9])$" } },
        "colours": { "type": "string", "description": "What the file states its colours by when not sRGB (an ICC profile, PNG gAMA or cICP): its stored values show the scene's sRGB colours only through that statement. Absent for untagged (sRGB) files." },
        "embeddedThumbnail": { "type": "string", "description": "The EXIF IFD1 thumbnail the file embeds that does not show the image (stale, tiny, or stored upright under a rotated image), in words. Absent when the file embeds none." },
        "hiddenTwin": { "type": "string", "description": "The invisible-pixel invariance twin, relative to the corpus folder: the same file with other colours under alpha 0 (magenta and green swapped, gray inverted) and every pixel with alpha > 0 identical. Absent when the file stores no colour under alpha 0 (premultiplied or no alpha, over-blended APNG, GIF animation)." },
        "operations": { "type": "array", "items": { "$ref": "#/$defs/operationEntry" } }
      }
    },
    "pixelFormat": {
      "description": "The pixel format a decoder delivers, in Quartz terms (CGColorSpaceModel, CGImageAlphaInfo, CGBitmapInfo).",
      "type": "object",
      "required": ["colorModel", "bitsPerComponent", "bitsPerPixel", "alphaInfo", "byteOrder", "floatComponents"],
      "additionalProperties": false,
      "properties": {
        "colorModel": { "enum": ["kCGColorSpaceModelUnknown", "kCGColorSpaceModelMonochrome", "kCGColorSpaceModelRGB", "kCGColorSpaceModelCMYK", "kCGColorSpaceModelIndexed"] },
        "cmykInverted": { "type": "boolean", "description": "CMYK only: values are 255 - ink (Adobe APP14 convention)." },
        "bitsPerComponent": { "enum": [1, 2, 4, 5, 8, 16, 32] },
        "bitsPerPixel": { "type": "integer", "minimum": 1 },
        "alphaInfo": { "enum": ["kCGImageAlphaNone", "kCGImageAlphaNoneSkipFirst", "kCGImageAlphaNoneSkipLast", "kCGImageAlphaFirst", "kCGImageAlphaLast", "kCGImageAlphaPremultipliedFirst", "kCGImageAlphaPremultipliedLast", "kCGImageAlphaOnly"] },
        "byteOrder": { "enum": ["kCGBitmapByteOrderDefault", "kCGBitmapByteOrder16Little", "kCGBitmapByteOrder16Big", "kCGBitmapByteOrder32Little", "kCGBitmapByteOrder32Big"] },
        "floatComponents": { "type": "boolean", "description": "kCGBitmapFloatComponents." }
      }
    },
    "animation": {
      "type": "object",
      "required": ["style", "loopCount", "delays", "disposals", "blend", "regions"],
      "additionalProperties": false,
      "properties": {
        "style": { "type": "string" },
        "loopCount": { "type": "integer", "minimum": 0, "description": "0 plays forever." },
        "delays": { "type": "array", "items": { "type": "number", "minimum": 0 }, "description": "Seconds per frame." },
        "disposals": { "type": "array", "items": { "enum": ["unspecified", "none", "background", "previous"] }, "description": "Disposal of each frame." },
        "blend": { "enum": ["source", "over"] },
        "regions": { "type": "array", "items": { "type": "array", "items": { "type": "integer" }, "minItems": 4, "maxItems": 4 }, "description": "[x, y, width, height] per frame, canvas pixels." }
      }
    },
    "operationEntry": {
      "type": "object",
      "required": ["id", "operation", "outputWidth", "outputHeight", "samplesPerAxis", "oracle"],
      "additionalProperties": false,
      "properties": {
        "id": { "type": "string", "description": "Operation identifier: the kind, then the parameters, each after a -, e.g. resize-aspectFit-24x24, squareThumbnail-24-b2-r6." },
        "operation": { "$ref": "#/$defs/operation" },
        "outputWidth": { "type": "integer", "minimum": 1, "description": "Expected output width by the declared rounding rule." },
        "outputHeight": { "type": "integer", "minimum": 1 },
        "samplesPerAxis": { "type": "integer", "minimum": 1, "description": "Supersampling points per axis per output pixel." },
        "oracle": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "Oracle image per frame, relative to the corpus folder." }
      }
    },
    "operation": {
      "description": "A resizer operation; sizes in output pixels of the upright image.",
      "type": "object",
      "required": ["kind"],
      "additionalProperties": false,
      "properties": {
        "kind": { "enum": ["orient", "resize", "crop", "squareThumbnail", "roundedCorners", "transparentBorder", "maxPixelSize"], "description": "The operation's name." },
        "width": { "type": "integer", "minimum": 1, "description": "resize: box width." },
        "height": { "type": "integer", "minimum": 1, "description": "resize: box height." },
        "mode": { "enum": ["scaleToFill", "aspectFit", "aspectFill", "aspectFillWithoutCrop"], "description": "resize: content mode." },
        "anchor": { "type": "array", "items": { "type": "number", "minimum": 0, "maximum": 1 }, "minItems": 2, "maxItems": 2, "description": "aspectFill: crop anchor, unit coordinates (0 left/top, 1/2 centre, 1 right/bottom)." },
        "rect": { "type": "array", "items": { "type": "number" }, "minItems": 4, "maxItems": 4, "description": "crop: [x, y, width, height]; made integral by CGRectIntegral." },
        "size": { "type": "integer", "minimum": 1, "description": "squareThumbnail: side; maxPixelSize: longest side." },
        "border": { "type": "integer", "minimum": 0, "description": "Width of the transparent border, pixels." },
        "cornerRadius": { "type": "number", "minimum": 0, "description": "Corner radius, pixels." }
      }
    }
  }
}

"""#
}
