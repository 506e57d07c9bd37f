#!/usr/bin/env python3
# Writes Corpus/gates.json and its copy built into imglab (Sources/ImageCorpus/Corpus/ReviewedGates.swift). The kernel families (judged against the kernel-exact oracle) come from
# arithmetic and are written as they are. The box families are derived from an observation run of a
# resizer judged against the box oracle (the built-in with "kernel": "none"): the worst value of
# each gated metric per family, times a 1.25 margin (ssim: 1 - (1 - worst) x 1.25), rounded up to
# 3 significant digits, so the worst observation sits near 80 % of its bound (above the 75 %
# lax-bound warning). Colour-cast bounds are a fixed +-2. Reviewed by hand before committing.
# SSIM has no value where a side is under its 11-pixel window (thin real images given with
# --inputs), so each ssim bound reads (ssim >= b || size.min < 11): the other terms still hold there.
#
# Families: the formats that cannot hold the scene, lossy sources, the copy operations,
# enlargement, then shrinking split by scene kind, so that smooth scenes get tight bounds and
# scenes with pixel-level detail looser ones; the mean metrics (visible.mean, deltaE00.mean) are
# gated too, since the subtle bugs (sRGB averaging, nearest neighbour, half-pixel offset) move
# the mean far more than the kernel blur does, while blur and ringing dominate the maxima.
#
# Usage: with permissive gates in Corpus/gates.json (scripts/derive-gates.py --permissive writes
# them: every bound open, the same families and canaries), run
#        .build/release/imglab run --resizer config:FILE --report none --json /tmp/observe.json
# with FILE a copy of benchmarks/resizers/imglab-cli.json whose policy adds "kernel": "none"
# then   scripts/derive-gates.py /tmp/observe.json
import json, collections, math, os, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
permissive = sys.argv[1] == '--permissive'
a = [] if permissive else json.load(open(sys.argv[1]))['pairs']
man=json.load(open(os.path.join(root, 'Corpus/manifest.json')))
cs={c['id']:c for c in man['cases']}
coarse=['png-gray1','png-gray2','png-gray4','bmp-555','bmp-565']
fams=[
 *[dict(name='coarse-'+e, encodings=[e], why='%s cannot hold the scene (1-, 2- and 4-bit gray and 5-bit-per-channel BMP: manifest tolerance 0.016 to 0.5), so even a perfect copy differs from the oracle; one family per encoding, since their quantisation errors differ tenfold'%e) for e in coarse],
 dict(name='lossy', lossy=True, why='JPEG sources: the decoded file already differs from the scene'),
 dict(name='exact-copy', operations=['orient','crop','transparentBorder'], why='no resampling: the output is the decoded pixels moved, so only the storage precision separates it from the oracle'),
 dict(name='enlarge', enlarges=True, why="enlargement: Lanczos 3 interpolates between pixels where the oracle renders the scene's sharp edges at the finer grid"),
 dict(name='resample-checker', scenes=['checkerAndGray'], why='shrinking and thumbnails of the 1-pixel checker beside linear 50 % gray: in linear light the checker averages to the gray (sRGB 188), so Lanczos 3 stays close to the ideal; its own family keeps the bounds tight enough to catch averaging in sRGB (128)'),
 dict(name='resample-detail', scenes=['thinStrokes','zonePlate'], why='shrinking and thumbnails of scenes with pixel-level detail (thin strokes, zone plate up to Nyquist): Lanczos 3 ringing and blur against the box-filtered (area-average) ideal are largest here'),
 dict(name='resample-edges', scenes=['stepEdges','colorPatches','orientation','stencil'], why='shrinking and thumbnails of flat scenes with sharp edges: Lanczos 3 ringing at the edges against the box-filtered ideal'),
 dict(name='resample-halo', scenes=['halo'], why='shrinking and thumbnails of the halo scene (hard, soft and translucent alpha edges of white, black and blue bars, 8 pixels wide, beside hidden magenta and green): at a 1/3 shrink the bars are under 3 output pixels wide, and Lanczos 3 (support widened to 9 source pixels, negative lobes) differs most in structure from the box-filtered ideal, so ssim drops below the flat scenes\' bound (0.892 on resize-aspectFit-16x16, where an independent premultiplied linear-light Lanczos 3 matches the built-in exactly); hidden colour plays no part (each source and its twin give byte-identical outputs)'),
 dict(name='resample-smooth', why='shrinking and thumbnails of smooth scenes (landscape, soft alpha, constant): little for the kernel to blur, so the bounds are tight'),
]
def entry(p):
    c=cs[p['caseID']]; return next(o for o in c['operations'] if o['id']==p['operation'])
def takes(f,p):
    c=cs[p['caseID']]; e=entry(p)
    if 'operations' in f and e['operation']['kind'] not in f['operations']: return False
    if 'lossy' in f and f['lossy']!=c['lossy']: return False
    if 'encodings' in f and c['encoding'] not in f['encodings']: return False
    if 'scenes' in f and c['scene'] not in f['scenes']: return False
    if 'enlarges' in f and f['enlarges'] != (e['outputWidth']*e['outputHeight']>c['displayWidth']*c['displayHeight']): return False
    return True
groups=collections.defaultdict(list)
for p in a:
    for f in fams:
        if takes(f,p): groups[f['name']].append(p); break
def up(x):
    if x==0: return 0
    e=math.floor(math.log10(abs(x)))-2
    return math.ceil(round(x/10**e,9))*10**e
# Families judged against the kernel-exact oracle (resizers that declare their kernel, the
# built-in among them): bounds from arithmetic, not observation. A correct resizer differs from
# that oracle only by its output rounding (1/2 code) plus the oracle's own 16-bit storage (1/2 of
# a 16-bit code); composited over black or white, colour and alpha roundings add up to 1 code, and
# the oracle's colour and alpha storage to 1/257 of a code: 1.00389, bound 1.0039.
kernel_fams=[
 dict(name='kernel-tagged', oracle='kernel', derivedBounds=True, encodings=['*-tagged-*'],
      rationale="Sources that state their colours by an ICC profile, PNG gAMA or cICP, judged against the kernel-exact oracle resampled in the profile's own linear light and shown in sRGB through it (an output that keeps the profile is shown in sRGB through it too). A stored value's rounding shows in sRGB multiplied by the space's slope, most near sRGB's black, so a code-value bound would measure the space, not the resizer: colour is bounded by CIEDE2000 instead. Half a code in the source's space moves a colour by at most dE00 1.62 (Adobe RGB, 8 bits), 1.39 (Display P3), 1.17 (sRGB itself, the swapped-primaries profile), 1.67 (gamma 1.8 with sRGB primaries), 0.21 (gray gamma 2.2) (scripts/tagged-rounding.py computes these on an 18-step grid of sRGB colours, every corner of the half-code cube), bound 1.7; at the 99th percentile, at most a just-noticeable difference (dE00 1). Alpha by its rounding, 1/2 code plus 1/2 of a 16-bit code (bound 0.51).",
      gate='deltaE00.max <= 1.7 && deltaE00.p99 <= 1 && alpha.max <= 0.51'),
 dict(name='kernel-premultiplied', oracle='kernel', derivedBounds=True, encodings=['tiff-*-assoc', 'heif-*-premultiplied', 'input-*-assoc', 'bmp-xrgb32'],
      rationale='Outputs stored premultiplied in 8 bits (associated-alpha TIFF, generated or given with --inputs; HEIF with a prem reference; 32-bit BMP with a skipped byte, whose bordered and rounded outputs are premultiplied), judged against the kernel-exact oracle of the declared kernel: a correct resizer differs only by rounding, alpha by 1/2 code plus 1/2 of a 16-bit code (the oracle file), visible colour by at most 1/2 + 1/2 code of its own plus 1/2 + 1/2 of a 16-bit code of the oracle file (1 + 1/257 = 1.00389, bound 1.0039). Straight colour in translucent pixels is not gated here: dividing a premultiplied code by a small alpha magnifies its rounding.',
      gate='visible.max <= 1.0039 && alpha.max <= 0.51'),
 dict(name='kernel-16bit', oracle='kernel', derivedBounds=True, encodings=['*16*', 'tiff-float-*'],
      rationale="16-bit and float outputs judged against the kernel-exact oracle of the declared kernel: alpha differs by the output's rounding, 1/2 of a 16-bit code, plus the oracle file's 1/2, i.e. one 16-bit code = 1/257 of an 8-bit code (0.00389), rounded up to 0.003892. Composited over black or white, colour and alpha roundings add up (a·Δc + |c − background|·Δa ≤ 1/2 + 1/2 code), for the output and for the oracle file alike: two 16-bit codes, 2/257 = 0.0077821, bound 0.007783. Straight colour in translucent pixels: a resizer's 24-bit float working values, divided by a small alpha, leave up to 2 16-bit codes of their own (the one bound here that rests on an observation: the built-in's worst on the quick corpus), plus the oracle file's 1/2: 2.5/257 = 0.00973.",
      gate='visible.max <= 0.007783 && alpha.max <= 0.003892 && translucent.max <= 0.00973'),
 dict(name='kernel', oracle='kernel', derivedBounds=True,
      rationale="Every other pair judged against the kernel-exact oracle of the declared kernel (8-bit straight outputs): alpha and straight colour differ by their rounding, 1/2 code plus 1/2 of a 16-bit code (0.502, bound 0.51); composited over black or white the two roundings add up to 1 code, and the oracle file's two to 1/257 of a code (1.00389, bound 1.0039). A resizer that resamples straight colour (halo), uses another kernel, light space or edge rule, or rounds twice fails here.",
      gate='visible.max <= 1.0039 && alpha.max <= 0.51 && translucent.max <= 0.51'),
]
out=[dict(f) for f in kernel_fams]
M=1.25
maxima=['visible.max','deltaE00.p99','alpha.max','visible.mean','deltaE00.mean']
for f in fams:
    fam={k:f[k] for k in ('name','operations','lossy','encodings','scenes','enlarges') if k in f}
    if permissive:
        fam['rationale']='permissive: every bound open, for an observation run of scripts/derive-gates.py'
        fam['gate']=' && '.join(['%s >= 0'%m for m in maxima]+['ssim <= 1','-100 <= cast.a <= 100','-100 <= cast.b <= 100'])
        out.append(fam); continue
    v=groups[f['name']]
    w={m:max(p['metrics'][m] for p in v) for m in maxima}
    s=min(p['metrics']['ssim'] for p in v)
    cast=max(max(abs(p['metrics']['cast.a']),abs(p['metrics']['cast.b'])) for p in v)
    b={m:round(up(w[m]*M),6) for m in w}
    sb=round(1-up((1-s)*M),6)
    cb=2
    gate=' && '.join(['%s <= %g'%(m,b[m]) for m in maxima]+['(ssim >= %g || size.min < 11)'%sb,'-%g <= cast.a <= %g'%(cb,cb),'-%g <= cast.b <= %g'%(cb,cb)])
    observed=', '.join('%s %.4g'%(m,w[m]) for m in maxima)
    rat='%s. Worst observed with the built-in resizer over %d pairs of the quick profile: %s, ssim %.4g, |cast.a| and |cast.b| %.3g. Bounds: worst x 1.25 (ssim: 1 - (1 - worst) x 1.25), rounded up to 3 significant digits, so the worst value sits near 80 %% of each bound, above the 75 %% lax-bound warning. Colour cast: +-2 (an R-B swap moves it by 8 or more on coloured scenes; blur by at most 1.4).'%(f['why'],len(v),observed,s,cast)
    fam['rationale']=rat; fam['gate']=gate
    out.append(fam)
    print(f['name'],len(v),gate)
doc={'schema':'imglab-gates/1',
 'about':'Reviewed gates of imglab run, per family of (case, operation) pairs; the first family that takes a pair judged against its oracle judges it. A resizer that declares its kernel (the built-in: Lanczos 3) is judged against the kernel-exact oracle of that design, rendered from the source as decoded, with bounds from arithmetic (a code value or so: the kernel families). A resizer that declares none is judged against the box (area-average) ideal with the other families, whose bounds leave room for the blur of a Lanczos 3 resizer in linear light; each rationale gives the observed worst values the bounds rest on (scripts/derive-gates.py). Shrinking is split by scene kind so that smooth scenes get tight bounds; the mean metrics are gated because the subtle bugs (sRGB averaging, nearest neighbour, half-pixel offset) move them far more than blur does. Change a bound only with new observations. Canaries: pairs run through the built-in resizer broken by a mutant of the catalogue (imglab selftest lists them) before the real run; each must fail (with the named diagnosis, when one is given), or the run exits 2.',
 'families':out,
 # Invisible-pixel invariance: a source and its twin differ only under alpha 0, so a resizer that
 # premultiplies gives the same visible output for both (any difference is hidden colour leaking).
 'invariance':'hidden.delta <= 0',
 # The scale profile's cost gate: requirements of the product brief, written as they are.
 'cost':{'gate': 'cost.rss.overFloor <= 24 && cost.cpu.ratio <= 4', 'rationale': "The scale profile's cost gate (imglab run --profile scale), from arithmetic on what a streaming resizer must hold and do, over its child process measured by imglab-measure (wait4) against the floor measured in the same run: 'imglab decode' of the same source at the DCT scale a correct shrink-on-load uses (1/8 of a 6000 x 4000 JPEG for a 640 thumbnail), adding every delivered byte once into its output cell (a box average). Memory beyond the floor at most 24 MiB, whatever the source's size: a band of decoded rows (64 rows of a 12000-pixel RGBA row in 16-bit: 6 MiB), the rows of the vertical kernel pass at output width (Lanczos 3 at a 15x shrink spans 90 rows of 800 float RGBA pixels: 1.1 MiB) and the output (800 x 600 float RGBA: 7.3 MiB) with its encoder's buffers come to under 16 MiB; the whole source in memory (24 to 96 megapixels of 3 to 16 bytes) is 10 to 100 times that. CPU time at most 4 times the floor's: besides the decoding both do, a Lanczos 3 resampler does 6 multiply-adds a sample in its horizontal pass and 6/s in its vertical pass at a shrink s, with a conversion to linear light and a premultiplication, about 3 times the box's one addition a sample, then writes the output; a JPEG decoded at full size instead of 1/8 decodes 64 times the pixels. The absolute 48 MiB of the product brief is reported (cost.rss), not gated: libjpeg holds a progressive JPEG's whole coefficient image (69 MiB at 6000 x 4000, 275 MiB at 12000 x 8000), the floor too."},
 # Canaries are globs, each the first matching pair in manifest order, so the file serves every profile.
 'canaries':[
   {'pair':'png-rgba8-colorPatches-*/resize-aspectFit-*','mutant':'swap-rb','diagnosis':'channel-order'},
   {'pair':'jpeg-444-colorPatches-*/orient','mutant':'swap-rb','diagnosis':'channel-order'},
   {'pair':'png-rgba8-softAlpha-*/squareThumbnail-*','mutant':'swap-rb'},
   {'pair':'bmp-xrgb32-landscape-*/resize-aspectFit-*','mutant':'argb-as-rgba','diagnosis':'alpha-position'},
 ]}
if permissive:
    # Open bounds let every colour bug through; a canary whose output has the wrong size fails any gate.
    doc['canaries']=[{'pair':'png-rgba8-colorPatches-*/resize-aspectFit-*','mutant':'size-overshoot'}]
s=json.dumps(doc,indent=2)+'\n'
# The gates travel inside the binary (ImageCorpus.ReviewedGates), and 'imglab corpus' writes them
# beside every corpus it generates; 'imglab corpus --check' holds Corpus/gates.json to the same bytes.
open(os.path.join(root, 'Corpus/gates.json'),'w').write(s)
swift = ('/// The reviewed gates of `imglab run` (schema imglab-gates/1), built into imglab and written\n'
         '/// beside every corpus `imglab corpus` generates as `gates.json`. Generated by\n'
         '/// scripts/derive-gates.py (which says how each bound was set); edit them there.\n'
         'public enum ReviewedGates {\n'
         '    /// The file name in a corpus folder.\n'
         '    public static let fileName = "gates.json"\n\n'
         '    /// The file\'s text, newline-terminated.\n'
         '    public static let text = #"""\n' + s + '"""# + "\\n"\n}\n')
open(os.path.join(root, 'Sources/ImageCorpus/Corpus/ReviewedGates.swift'),'w').write(swift)
