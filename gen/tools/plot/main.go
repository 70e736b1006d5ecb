// Plot draws the one-update rows of the speed table (docs/speed.json,
// written by gen/tools/speedtable) as an SVG line chart: throughput in
// MB/s against message size on a logarithmic axis from 16 bytes to 64 KiB,
// one line per implementation. The SVG is written by hand: no plotting
// library, nothing fetched.
//
//	go -C gen run ./tools/plot -in $PWD/docs/speed.json -out $PWD/docs/speed.svg
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"log"
	"math"
	"os"
	"slices"
	"strings"
)

// The parts of docs/speed.json the plot reads.
type report struct {
	Date     string    `json:"date"`
	CPU      string    `json:"cpu"`
	Go       string    `json:"go"`
	OpenSSL  string    `json:"openssl"`
	Rounds   int       `json:"rounds"`
	ClockGHz []float64 `json:"clock_ghz"`
	Impls    []struct {
		Name  string `json:"name"`
		Label string `json:"label"`
		Kind  string `json:"kind"`
	} `json:"impls"`
	Results []struct {
		Impl       string  `json:"impl"`
		Updates    int     `json:"updates"`
		UpdateSize int     `json:"update_size"`
		MBPerS     float64 `json:"mb_per_s"`
	} `json:"results"`
}

// The chart's geometry, in SVG user units (pixels when rendered 1:1).
const (
	width, height                      = 1000, 600
	marginL, marginR, marginT, marginB = 80, 300, 70, 70 // the legend sits in the right margin
	minLog2, maxLog2                   = 4, 16           // 16 bytes .. 64 KiB
)

// colors are distinct on white and for the common colour blindnesses
// (Okabe and Ito's palette, then darker extras).
var colors = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8c564b", "#7f7f7f", "#bcbd22"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("plot: ")
	in := flag.String("in", "docs/speed.json", "the speed table's `file` (make speed)")
	out := flag.String("out", "docs/speed.svg", "write the SVG to `file`")
	flag.Parse()

	b, err := os.ReadFile(*in)
	if err != nil {
		log.Fatalf("%v (make speed writes it)", err)
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		log.Fatalf("%s: %v", *in, err)
	}
	svg, err := draw(&rep)
	if err != nil {
		log.Fatalf("%s: %v", *in, err)
	}
	if err := os.WriteFile(*out, []byte(svg), 0o644); err != nil {
		log.Fatal(err)
	}
}

type point struct{ size, mbps float64 }

func draw(rep *report) (string, error) {
	series := map[string][]point{}
	maxY := 0.0
	for _, r := range rep.Results {
		if r.Updates != 1 || r.UpdateSize < 1<<minLog2 || r.UpdateSize > 1<<maxLog2 {
			continue
		}
		series[r.Impl] = append(series[r.Impl], point{float64(r.UpdateSize), r.MBPerS})
		maxY = math.Max(maxY, r.MBPerS)
	}
	if len(series) == 0 {
		return "", fmt.Errorf("no one-update results between %d and %d bytes", 1<<minLog2, 1<<maxLog2)
	}
	step := niceStep(maxY / 6)
	yMax := math.Ceil(maxY/step) * step

	plotW, plotH := float64(width-marginL-marginR), float64(height-marginT-marginB)
	x := func(size float64) float64 { return marginL + (math.Log2(size)-minLog2)/(maxLog2-minLog2)*plotW }
	y := func(v float64) float64 { return marginT + plotH - v/yMax*plotH }

	var s strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&s, format+"\n", args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="13">`, width, height, width, height)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>`)
	p(`<text x="%d" y="28" font-size="18" font-weight="bold">SHA-1 throughput, one update of N bytes (make speed)</text>`, marginL)
	sub := fmt.Sprintf("%s; %s; %s; best of %d rounds; %s", rep.CPU, rep.Go, firstWords(rep.OpenSSL, 2), rep.Rounds, rep.Date)
	p(`<text x="%d" y="50" font-size="12" fill="#444444">%s</text>`, marginL, html.EscapeString(sub))

	// Grid, ticks and labels.
	p(`<g stroke="#dddddd" stroke-width="1">`)
	for e := minLog2; e <= maxLog2; e++ {
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f"/>`, x(math.Exp2(float64(e))), marginT, x(math.Exp2(float64(e))), marginT+plotH)
	}
	for v := 0.0; v <= yMax+step/2; v += step {
		p(`<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f"/>`, marginL, y(v), marginL+plotW, y(v))
	}
	p(`</g>`)
	p(`<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="#333333"/>`, marginL, marginT, plotW, plotH)
	for e := minLog2; e <= maxLog2; e++ {
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x(math.Exp2(float64(e))), marginT+plotH+20, sizeLabel(1<<e))
	}
	for v := 0.0; v <= yMax+step/2; v += step {
		p(`<text x="%d" y="%.1f" text-anchor="end">%.0f</text>`, marginL-8, y(v)+4, v)
	}
	p(`<text x="%.1f" y="%d" text-anchor="middle">message size in bytes (log scale), hashed in one Write</text>`, marginL+plotW/2, height-22)
	p(`<text transform="translate(24 %.1f) rotate(-90)" text-anchor="middle">MB/s (10^6 bytes per second)</text>`, marginT+plotH/2)

	// One line per implementation, in the report's order: ours solid,
	// crypto/sha1 dotted, OpenSSL dashed.
	legendY := float64(marginT + 10)
	i, nOpenSSL := 0, 0
	for _, im := range rep.Impls {
		pts := series[im.Name]
		if len(pts) == 0 {
			continue
		}
		slices.SortFunc(pts, func(a, b point) int { return int(a.size - b.size) })
		color := colors[i%len(colors)]
		dash := ""
		switch im.Kind {
		case "openssl":
			// Long dashes, dash-dot, short dashes: OpenSSL's code paths.
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, []string{"8 4", "10 3 2 3", "4 3"}[nOpenSSL%3])
			nOpenSSL++
		case "stdlib":
			dash = ` stroke-dasharray="2 3"`
		}
		var path []string
		for _, pt := range pts {
			path = append(path, fmt.Sprintf("%.1f,%.1f", x(pt.size), y(pt.mbps)))
		}
		p(`<g><title>%s</title>`, html.EscapeString(im.Label))
		p(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`, strings.Join(path, " "), color, dash)
		for _, pt := range pts {
			p(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, x(pt.size), y(pt.mbps), color)
		}
		p(`</g>`)
		lx := float64(width - marginR + 20)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`, lx, legendY, lx+30, legendY, color, dash)
		p(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, lx+15, legendY, color)
		p(`<text x="%.1f" y="%.1f" font-size="12">%s</text>`, lx+38, legendY+4, html.EscapeString(im.Label))
		legendY += 22
		i++
	}
	p(`</svg>`)
	return s.String(), nil
}

// niceStep rounds x up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// sizeLabel writes n as 512 or 16K.
func sizeLabel(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dK", n/1024)
	}
	return fmt.Sprint(n)
}

// firstWords returns the first n words of s ("OpenSSL 3.0.19").
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}
