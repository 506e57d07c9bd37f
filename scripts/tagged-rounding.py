#!/usr/bin/env python3
# The largest CIEDE2000 difference half a stored code makes, shown in sRGB, for each 8-bit colour space
# the corpus tags sources with (EncodingCatalog.tagged): the bound of the kernel-tagged gate family
# (scripts/derive-gates.py). Textbook arithmetic (primaries, white, Bradford, tone curves), every corner of
# the half-code cube around the codes that show an 18-step grid of sRGB colours. Needs numpy, scikit-image.
import numpy as np
from skimage.color import deltaE_ciede2000, rgb2lab
def dec_srgb(v): return np.where(v<=0.04045,v/12.92,((v+0.055)/1.055)**2.4)
def enc_srgb(v): return np.where(v<=0.0031308,12.92*v,1.055*np.clip(v,0,None)**(1/2.4)-0.055)
def xyz(xy): return np.array([xy[0]/xy[1],1,(1-xy[0]-xy[1])/xy[1]])
def m(prim,white):
    P=np.stack([xyz(p) for p in prim],1); S=np.linalg.solve(P,xyz(white)); return P*S
def brad(f,t):
    ma=np.array([[0.8951,0.2664,-0.1614],[-0.7502,1.7135,0.0367],[0.0389,-0.0685,1.0296]])
    s=ma@xyz(f); d=ma@xyz(t); return np.linalg.inv(ma)@np.diag(d/s)@ma
d65=[0.3127,0.3290]; srgbp=[[0.64,0.33],[0.30,0.60],[0.15,0.06]]
toS=np.linalg.inv(m(srgbp,d65))
spaces={
 'adobe':([[0.64,0.33],[0.21,0.71],[0.15,0.06]],d65,lambda v:v**(563/256)),
 'p3':([[0.68,0.32],[0.265,0.69],[0.15,0.06]],d65,dec_srgb),
 'swapped':([srgbp[1],srgbp[0],srgbp[2]],d65,dec_srgb),
 'gama18':(srgbp,d65,lambda v:v**1.8),
 'gray22':(None,d65,lambda v:v**2.2),
}
g=np.linspace(0,1,18)
for name,(prim,white,curve) in spaces.items():
    if prim is None:
        codes=np.arange(256)/255.0
        base=np.repeat(codes[:,None],3,1)
        def render(c): y=curve(np.clip(c[:,:1],0,1)); return enc_srgb(np.repeat(y,3,1))
        worst=0
        for s in (-0.5,0.5):
            a=render(base); b=render(np.clip(base+s/255,0,1))
            worst=max(worst,deltaE_ciede2000(rgb2lab(a[None]),rgb2lab(b[None])).max())
        print(name,'max dE00 half code',round(worst,3)); continue
    M=toS@brad(white,d65)@m(prim,white)
    def render(c): return enc_srgb(np.clip(curve(np.clip(c,0,1))@M.T,0,1))
    G=np.stack(np.meshgrid(g,g,g,indexing='ij'),-1).reshape(-1,3)
    # store: the codes showing sRGB colours of grid
    lin=dec_srgb(G)@np.linalg.inv(M).T
    # invert curve numerically
    vals=np.linspace(0,1,65536); cur=curve(vals)
    codes=np.interp(np.clip(lin,0,1),cur,vals)
    codes=np.round(codes*255)/255
    a=render(codes); worst=0
    for sx in (-0.5,0.5):
      for sy in (-0.5,0.5):
        for sz in (-0.5,0.5):
          b=render(codes+np.array([sx,sy,sz])/255)
          worst=max(worst,deltaE_ciede2000(rgb2lab(a[None]),rgb2lab(b[None])).max())
    print(name,'max dE00 half code',round(worst,3))
