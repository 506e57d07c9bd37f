import Foundation
import Testing
import ImageCorpus
import ImageLab

/// One name per operation (``LabOperation``): the case, the id, the manifest kind, the schema,
/// declared policies and config templates agree, and the names of manifest version 1 are read
/// as the current ones.
@Suite("operation names")
struct OperationNameTests {
    /// Every operation of the quick profile with its id, written out by the rule
    /// `NAME-PARAMETERS` of ``LabOperation``.
    static let operations: [(LabOperation, String)] = [
        (.orient, "orient"),
        (.resize(width: 24, height: 24, mode: .aspectFit), "resize-aspectFit-24x24"),
        (.resize(width: 31, height: 17, mode: .scaleToFill), "resize-scaleToFill-31x17"),
        (.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)), "resize-aspectFill-20x20"),
        (.resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0, anchorY: 0)), "resize-aspectFill@0,0-20x20"),
        (.resize(width: 20, height: 20, mode: .aspectFillWithoutCrop), "resize-aspectFillWithoutCrop-20x20"),
        (.crop(x: 4.5, y: 2.25, width: 19.5, height: 13.5), "crop-4p5-2p25-19p5x13p5"),
        (.squareThumbnail(size: 24, border: 2, cornerRadius: 6), "squareThumbnail-24-b2-r6"),
        (.roundedCorners(radius: 8, border: 0), "roundedCorners-r8-b0"),
        (.transparentBorder(width: 3), "transparentBorder-3"),
        (.maxPixelSize(40), "maxPixelSize-40"),
    ]

    @Test("an operation's id is its name then its parameters, and its manifest kind is that name")
    func idsAndKinds() {
        for (operation, id) in Self.operations {
            #expect(operation.id == id)
            #expect(id == operation.name || id.hasPrefix(operation.name + "-"), "\(id)")
            #expect(operation.record.kind == operation.name)
            #expect(operation.record.operation == operation, "\(id) reads back")
            #expect(LabOperation.names.contains(operation.name))
        }
        #expect(Set(Self.operations.map(\.0.name)) == Set(LabOperation.names))
    }

    @Test("the manifest schema lists exactly the operation and content mode names, at the manifest version")
    func schema() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(ManifestSchema.text.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect((properties["version"] as? [String: Any])?["const"] as? Int == CorpusFormat.manifestVersion)
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let operation = try #require((definitions["operation"] as? [String: Any])?["properties"] as? [String: Any])
        #expect((operation["kind"] as? [String: Any])?["enum"] as? [String] == LabOperation.names)
        #expect((operation["mode"] as? [String: Any])?["enum"] as? [String] == LabContentMode.names)
    }

    @Test("the ids of manifest version 1 map to the current ids; current ids are kept")
    func versionOneIDs() {
        let mapped = [
            "orient": "orient", "fit-24x24": "resize-aspectFit-24x24", "fit-48x48": "resize-aspectFit-48x48",
            "stretch-31x17": "resize-scaleToFill-31x17", "stretch-96x64": "resize-scaleToFill-96x64",
            "fill-20x20": "resize-aspectFill-20x20", "fill@0,0-20x20": "resize-aspectFill@0,0-20x20",
            "fill@1,1-20x20": "resize-aspectFill@1,1-20x20", "fill-no-crop-20x20": "resize-aspectFillWithoutCrop-20x20",
            "crop-5-3-20x14": "crop-5-3-20x14", "thumb-24-b2-r6": "squareThumbnail-24-b2-r6",
            "thumb-16-b0-r0": "squareThumbnail-16-b0-r0", "corners-r8-b0": "roundedCorners-r8-b0",
            "corners-r6-b2": "roundedCorners-r6-b2", "border-3": "transparentBorder-3", "maxpx-40": "maxPixelSize-40",
        ]
        for (old, new) in mapped {
            #expect(ManifestV1Names.operationID(old) == new, "\(old)")
            #expect(ManifestV1Names.operationID(new) == new, "\(new) is kept")
        }
        for (_, id) in Self.operations { #expect(ManifestV1Names.operationID(id) == id) }
        #expect(ManifestV1Names.pairID("png-rgba8-softAlpha-48x32@2x/fit-48x48") == "png-rgba8-softAlpha-48x32@2x/resize-aspectFit-48x48")
        #expect(ManifestV1Names.pairID("bmp-xrgb32-landscape-48x32/thumb-24-b2-r6") == "bmp-xrgb32-landscape-48x32/squareThumbnail-24-b2-r6")
        #expect(ManifestV1Names.pairID("png-gray1-stepEdges-48x32/border-3") == "png-gray1-stepEdges-48x32/transparentBorder-3")
    }

    @Test("a policy declaring the spellings of manifest version 1 declares the current names")
    func policySpellings() {
        let p = ResizerPolicy(operations: ["orient", "thumbnail", "resize:stretch", "resize:fit", "resize:fill", "resize:fill-no-crop", "roundedCorners"])
        #expect(p.operations == ["orient", "squareThumbnail", "resize:scaleToFill", "resize:aspectFit", "resize:aspectFill",
                                 "resize:aspectFillWithoutCrop", "roundedCorners"])
        #expect(p.validationProblem() == nil)
        for (operation, id) in Self.operations where ![.crop(x: 4.5, y: 2.25, width: 19.5, height: 13.5), .transparentBorder(width: 3), .maxPixelSize(40)].contains(operation) {
            #expect(p.skipReason(operation: operation.record, container: "png") == nil, "\(id) is declared")
        }
        #expect(p.skipReason(operation: LabOperation.maxPixelSize(40).record, container: "png")?.hasPrefix("policy: operation 'maxPixelSize' not declared") == true)
        #expect(ResizerPolicy(operations: ["thumbnails"]).validationProblem()?.hasPrefix("unknown operation 'thumbnails'") == true)
    }

    @Test("a config's templates keyed by the spellings of manifest version 1 serve the current names")
    func configSpellings() throws {
        let json = """
        {"name": "old-keys", "templates": {"thumbnail": "thumb {in} {out}", "resize:fit": "fit {in} {out}", "transparentBorder": "pad {in} {out}"}}
        """
        let config = try JSONDecoder().decode(ResizerConfig.self, from: Data(json.utf8))
        let resizer = try config.resizer(folder: "/tmp")
        #expect(Set(resizer.templates.keys) == ["squareThumbnail", "resize:aspectFit", "transparentBorder"])
        #expect(resizer.templates["squareThumbnail"]?.text == "thumb {in} {out}")
        #expect(resizer.policy.operations == ["squareThumbnail", "transparentBorder", "resize:aspectFit"])
        let twice = """
        {"name": "both", "templates": {"thumbnail": "a {in} {out}", "squareThumbnail": "b {in} {out}"}}
        """
        let clash = try JSONDecoder().decode(ResizerConfig.self, from: Data(twice.utf8))
        #expect(throws: ResizerConfigError.self) { try clash.resizer(folder: "/tmp") }
    }

    @Test("a gates file and a goldens index in the spellings of manifest version 1 are read with the current names")
    func gatesAndGoldens() throws {
        let gates = """
        {"schema": "imglab-gates/1", "families": [{"name": "thumbs", "operations": ["thumbnail", "transparentBorder"], "gate": "visible.max <= 255"}],
         "canaries": [{"pair": "png-rgba8-softAlpha-48x32/thumb-24-b2-r6", "mutant": "swap-rb"}]}
        """
        let book = try GateBook(data: Data(gates.utf8))
        #expect(book.file.families[0].operations == ["squareThumbnail", "transparentBorder"])
        #expect(book.file.canaries[0].pair == "png-rgba8-softAlpha-48x32/squareThumbnail-24-b2-r6")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-goldens-v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = """
        {"schema": "imglab-goldens/1", "goldens": {"png-rgba8-colorPatches-48x32/maxpx-40": [
          {"hash": "0123456789abcdef", "file": "files/0123456789abcdef.png", "resizer": "builtin", "oracleDistance": {"visible.mean": 1.5}}]}}
        """
        try Data(index.utf8).write(to: folder.appendingPathComponent("index.json"))
        let loaded = try GoldenStore(folder: folder.path).load()
        #expect(Array(loaded.goldens.keys) == ["png-rgba8-colorPatches-48x32/maxPixelSize-40"])
        #expect(loaded.goldens["png-rgba8-colorPatches-48x32/maxPixelSize-40"]?.first?.hash == "0123456789abcdef")
    }
}
