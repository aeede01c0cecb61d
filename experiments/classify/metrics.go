package classify

import "strconv"

// metricNames returns every metric a record of a config with options o
// holds, as Run and putGraphStats write them (the package comment lists
// them); validate rejects claims and reference values naming any other
// (runner.Kind.Metrics). TestMetricNames checks the list against the
// records of real runs, both ways.
func (o options) metricNames() map[string]bool {
	names := map[string]bool{}
	add := func(ns ...string) {
		for _, n := range ns {
			names[n] = true
		}
	}
	add("mean_distance", "splits", "gain_min", "gain_max", "gain_mean", "win_fraction", "tie_fraction")
	add("flops_kpca", "cost_lpkpca_max", "cost_graph_max")
	add("kpca", "kpca_split1", "kpca_std")
	for _, p := range o.points() {
		s := p.suffix()
		add("lpkpca_"+s, "lpkpca_"+s+"_split1", "lpkpca_"+s+"_std", "gain_"+s)
		if o.sweepsK(p.lambda) {
			add("kbest_" + s)
		}
		if o.graphStats {
			add("lambda_lmax_"+s, "penalised_"+s, "variance_kept_"+s, "subspace_overlap_"+s)
		}
	}
	for _, k := range o.neighbors {
		s := "_k" + strconv.Itoa(k)
		add("knn_same_label" + s)
		if o.graphStats {
			add("same_label"+s, "laplacian_max"+s)
		}
	}
	return names
}

// sweepsK reports whether the sweep has more than one k at λ.
func (o options) sweepsK(lambda float64) bool {
	n := 0
	for _, p := range o.points() {
		if p.lambda == lambda {
			n++
		}
	}
	return n > 1
}
