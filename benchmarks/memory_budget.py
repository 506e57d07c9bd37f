#!/usr/bin/env python3
"""Bombs and the memory budget (issue 18, acceptance 3): files of a few hundred bytes that
declare 16000 x 16000 pixels, in every container, through info, thumbnail, resize and diff.
Each run's exit status and peak RSS (the child's own VmHWM, which imglab prints when
IMGLAB_REPORT_PEAK_MEMORY is set) are printed as a table; every run must be refused with a
message or done, within the budget plus the process's baseline.

Usage: benchmarks/memory_budget.py [--imglab .build/release/imglab] [--max-memory 256M]
"""
import argparse, os, struct, subprocess, sys, tempfile, zlib

def png_chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xFFFFFFFF)

def png16(w, h):
    # 16-bit RGBA, IDAT: a zlib stream of one empty stored block.
    return (b'\x89PNG\r\n\x1a\n' + png_chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 6, 0, 0, 0))
            + png_chunk(b'IDAT', zlib.compress(b'')) + png_chunk(b'IEND', b''))

def jpeg(imglab, w, h, folder):
    # A 16x16 JPEG from imglab's own encoder, its SOF0 patched to declare w x h.
    src = os.path.join(folder, 'small.png')
    raw = b''.join(b'\x00' + bytes(16 * 3) for _ in range(16))
    open(src, 'wb').write(b'\x89PNG\r\n\x1a\n' + png_chunk(b'IHDR', struct.pack('>IIBBBBB', 16, 16, 8, 2, 0, 0, 0))
                          + png_chunk(b'IDAT', zlib.compress(raw)) + png_chunk(b'IEND', b''))
    out = os.path.join(folder, 'small.jpg')
    subprocess.run([imglab, 'resize', src, '-o', out], check=True, capture_output=True)
    b = bytearray(open(out, 'rb').read())
    i = b.index(b'\xff\xc0')
    b[i + 5:i + 9] = struct.pack('>HH', h, w)
    return bytes(b)

def gif(w, h):
    # A 16000^2 logical screen holding one 1x1 frame.
    return (b'GIF89a' + struct.pack('<HH', w, h) + bytes([0x80, 0, 0]) + bytes([0, 0, 0, 255, 255, 255])
            + b'\x2c' + struct.pack('<HHHH', 0, 0, 1, 1) + b'\x00' + bytes([2, 2, 0x4C, 0x01, 0]) + b'\x3b')

def bmp_rle8(w, h):
    # RLE8: one run, then end of bitmap: the rest of the 256 MP is "skipped".
    palette = bytes(256 * 4)
    data = bytes([2, 1, 0, 1])
    header = struct.pack('<IiiHHIIiiII', 40, w, h, 1, 8, 1, len(data), 2835, 2835, 256, 0)
    offset = 14 + 40 + len(palette)
    return b'BM' + struct.pack('<IHHI', offset + len(data), 0, 0, offset) + header + palette + data

def tiff(w, h):
    # Little-endian, 8-bit RGB, one LZW strip of 8 bytes claiming the whole image.
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 1, 8), (259, 3, 1, 5), (262, 3, 1, 2),
               (273, 4, 1, 0), (277, 3, 1, 3), (278, 4, 1, h), (279, 4, 1, 8), (284, 3, 1, 1)]
    ifd_offset = 8
    ifd_size = 2 + 12 * len(entries) + 4
    strip = ifd_offset + ifd_size
    out = bytearray(b'II*\x00' + struct.pack('<I', ifd_offset) + struct.pack('<H', len(entries)))
    for tag, typ, count, value in entries:
        if tag == 273: value = strip
        out += struct.pack('<HHI', tag, typ, count) + (struct.pack('<HH', value, 0) if typ == 3 else struct.pack('<I', value))
    out += struct.pack('<I', 0) + bytes([0x80, 0, 0x20, 0, 0, 0, 0, 0])
    return bytes(out)

def run(cmd):
    env = dict(os.environ, IMGLAB_REPORT_PEAK_MEMORY='1')
    p = subprocess.run(cmd, capture_output=True, env=env)
    err = p.stderr.decode('utf-8', 'replace')
    peak = next((int(l.split()[3]) / 1024 for l in err.splitlines() if l.startswith('imglab: peak memory ')), float('nan'))
    message = next((l for l in err.splitlines() if l.startswith('imglab ') and not l.startswith('imglab: peak')), '')
    return p.returncode, peak, message

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--imglab', default='.build/release/imglab')
    ap.add_argument('--max-memory', default='256M')
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        bombs = {'BMP RLE8': bmp_rle8(16000, 16000), 'JPEG SOF': jpeg(a.imglab, 16000, 16000, d),
                 'GIF screen': gif(16000, 16000), 'PNG 16-bit': png16(16000, 16000), 'TIFF LZW': tiff(16000, 16000)}
        print(f'| file (16000 x 16000 declared) | bytes | command | exit | peak RSS MiB | outcome |')
        print('|---|---:|---|---:|---:|---|')
        worst = 0.0
        for name, data in bombs.items():
            path = os.path.join(d, name.replace(' ', '-'))
            open(path, 'wb').write(data)
            for label, cmd in [('info', ['info', path]),
                               ('thumbnail', ['thumbnail', path, '--max-pixel-size', '640', '-o', os.path.join(d, 't.png')]),
                               ('resize', ['resize', path, '--size', '800x600', '-o', os.path.join(d, 'r.png')]),
                               ('diff', ['diff', path, path])]:
                extra = [] if label == 'info' else ['--max-memory', a.max_memory]
                status, peak, message = run([a.imglab] + cmd + extra)
                worst = max(worst, peak)
                outcome = 'done' if status == 0 else (message.split(': ', 2)[-1][:110] if message else f'exit {status}, no message')
                print(f'| {name} | {len(data)} | {label} | {status} | {peak:.1f} | {outcome} |')
        print(f'\nworst peak RSS {worst:.1f} MiB (budget {a.max_memory} plus the process baseline)')

if __name__ == '__main__':
    sys.exit(main())
