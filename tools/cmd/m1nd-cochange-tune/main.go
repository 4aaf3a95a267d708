// Command m1nd-cochange-tune evaluates predict's parameters in process on
// the tune split of the co-change benchmark (never the held-out one): one
// ingest per repository, then every parameter setting over its queries.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/tools/cochange"
)

func main() {
	mirrors := flag.String("mirrors", "/work/.mirror", "git snapshots, owner+name/repo")
	reposTSV := flag.String("repos", "benchmarks/cochange/repos.tsv", "repos.tsv")
	work := flag.String("work", "/tmp/m1nd-cochange-tune", "cut checkouts")
	flag.Parse()
	f, err := os.Open(*reposTSV)
	if err != nil {
		panic(err)
	}
	repos, err := cochange.ReadRepos(f)
	f.Close()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	type prepared struct {
		name string
		s    *cochange.Split
		qs   []cochange.Query
		ip   *cochange.InProcess
		base float64
	}
	var ps []prepared
	for _, r := range repos {
		if r.Split != "tune" {
			continue // held-out repositories are never tuned on
		}
		src := filepath.Join(*mirrors, strings.ReplaceAll(r.Slug, "/", "+"), "repo")
		s, err := cochange.Prepare(ctx, src, r.Commit, 0.8, filepath.Join(*work, r.Name))
		if err != nil {
			fmt.Fprintln(os.Stderr, r.Name, err)
			continue
		}
		qs, _ := cochange.Queries(s)
		ip, err := cochange.NewInProcess(ctx, s.Checkout)
		if err != nil {
			fmt.Fprintln(os.Stderr, r.Name, err)
			continue
		}
		bs, _, _ := cochange.Evaluate(cochange.NewRose(s.Train, s.Universe, 30), qs, s.Universe)
		ps = append(ps, prepared{r.Name, s, qs, ip, bs.R10})
		fmt.Fprintf(os.Stderr, "%s: %d queries, baseline R@10 %.3f\n", r.Name, len(qs), bs.R10)
	}
	settings := variants(history.DefaultPredictParams())
	for _, v := range settings {
		var sum, base float64
		n := 0
		var per []string
		for _, p := range ps {
			p.ip.Params = v.p
			sc, _, err := cochange.Evaluate(p.ip, p.qs, p.s.Universe)
			if err != nil {
				panic(err)
			}
			sum += sc.R10 * float64(len(p.qs))
			base += p.base * float64(len(p.qs))
			n += len(p.qs)
			per = append(per, fmt.Sprintf("%s %.3f", p.name, sc.R10))
		}
		fmt.Printf("%-40s micro R@10 %.4f (baseline %.4f)  %s\n", v.name, sum/float64(n), base/float64(n), strings.Join(per, ", "))
	}
}

type variant struct {
	name string
	p    history.PredictParams
}

func variants(d history.PredictParams) []variant {
	vs := []variant{{"default", d}}
	add := func(name string, f func(p *history.PredictParams)) {
		p := d
		f(&p)
		vs = append(vs, variant{name, p})
	}
	for _, v := range strings.Split(os.Getenv("TUNE"), ";") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		name := v
		add(name, func(p *history.PredictParams) {
			for _, kv := range strings.Split(v, ",") {
				k, val, _ := strings.Cut(kv, "=")
				var x float64
				fmt.Sscan(val, &x)
				switch k {
				case "hist":
					p.HistoryWeight = x
				case "struct":
					p.StructureWeight = x
				case "dir":
					p.DirectoryWeight = x
				case "act":
					p.ActivityWeight = x
				case "half":
					p.HalfLifeDays = x
				case "large":
					p.LargeCommit = int(x)
				case "k":
					p.SupportK = x
				case "hops":
					p.StructureHops = int(x)
				case "vel":
					p.IncludeVelocity = x != 0
				}
			}
		})
	}
	return vs
}
