// Plot draws the one-update rows of the speed table (docs/speed.json,
// written by gen/tools/speedtable) as a line chart with gonum/plot:
// throughput in MB/s against message size on a logarithmic axis from 16
// bytes to 64 KiB, one line per implementation (OpenSSL's dashed). It
// writes the chart as SVG, and as PNG to look at.
//
//	go -C gen run ./tools/plot -in $PWD/docs/speed.json -out $PWD/docs/speed.svg [-png /tmp/speed.png]
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"log"
	"math/bits"
	"os"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/speedreport"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The sizes plotted: 16 bytes to 64 KiB.
const minSize, maxSize = 16, 64 << 10

// colors are distinct on white and for the common colour blindnesses
// (Okabe and Ito's palette), then darker extras.
var colors = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, {0xD5, 0x5E, 0x00, 0xff}, {0x00, 0x9E, 0x73, 0xff}, {0xCC, 0x79, 0xA7, 0xff},
	{0xE6, 0x9F, 0x00, 0xff}, {0x56, 0xB4, 0xE9, 0xff}, {0x00, 0x00, 0x00, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("plot: ")
	in := flag.String("in", "../docs/speed.json", "the speed table's `file` (make speed)")
	out := flag.String("out", "../docs/speed.svg", "write the SVG to `file`")
	png := flag.String("png", "", "also write a PNG to `file`")
	flag.Parse()

	b, err := os.ReadFile(*in)
	if err != nil {
		log.Fatalf("%v (make speed writes it)", err)
	}
	var rep speedreport.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		log.Fatalf("%s: %v", *in, err)
	}
	p, err := chart(&rep)
	if err != nil {
		log.Fatalf("%s: %v", *in, err)
	}
	for _, f := range []string{*out, *png} {
		if f != "" {
			if err := p.Save(25*vg.Centimeter, 15*vg.Centimeter, f); err != nil {
				log.Fatal(err)
			}
		}
	}
}

func chart(rep *speedreport.Report) (*plot.Plot, error) {
	series := map[string]plotter.XYs{}
	for _, r := range rep.Results {
		if r.Updates == 1 && r.UpdateSize >= minSize && r.UpdateSize <= maxSize {
			series[r.Impl] = append(series[r.Impl], plotter.XY{X: float64(r.UpdateSize), Y: r.MBPerS})
		}
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("no one-update results between %d and %d bytes", minSize, maxSize)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("SHA-1 throughput, one update of N bytes (make speed)\n%s; %s; %s; best of %d rounds; %s",
		rep.CPU, rep.Go, firstWords(rep.OpenSSL, 2), rep.Rounds, rep.Date)
	p.X.Label.Text = "message size in bytes (log scale), hashed in one Write"
	p.Y.Label.Text = "MB/s (10^6 bytes per second)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, false // bottom right: below the long-message plateaus
	p.Legend.YOffs, p.Legend.XOffs = vg.Points(30), -vg.Points(10)

	i, dashes := 0, [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}, {vg.Points(3), vg.Points(3)}}
	nOpenSSL := 0
	for _, im := range rep.Impls {
		pts := series[im.Name]
		if len(pts) == 0 {
			continue
		}
		slices.SortFunc(pts, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		c := colors[i%len(colors)]
		i++
		l.Color, s.Color = c, c
		l.Width = vg.Points(1.5)
		s.Shape = draw.CircleGlyph{}
		if im.Kind == "openssl" {
			l.Dashes = dashes[nOpenSSL%len(dashes)]
			nOpenSSL++
		}
		p.Add(l, s)
		p.Legend.Add(cmp.Or(im.Label, im.Name), l, s)
	}
	return p, nil
}

// sizeTicks marks every power of two on the size axis, labelled 16, 64,
// 256, 1K, ...
type sizeTicks struct{}

func (sizeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for v := 1.0; v <= hi; v *= 2 {
		if v < lo {
			continue
		}
		t := plot.Tick{Value: v}
		if n := int(v); n&(n-1) == 0 && (n == minSize || bits.Len(uint(n))%2 == bits.Len(minSize)%2) {
			t.Label = sizeLabel(n)
		}
		ts = append(ts, t)
	}
	return ts
}

func sizeLabel(n int) string {
	if n >= 1024 {
		return fmt.Sprintf("%dK", n/1024)
	}
	return fmt.Sprint(n)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}
