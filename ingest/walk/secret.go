package walk

import (
	"path"
	"path/filepath"
	"strings"
)

// DefaultSecretPatterns name files that hold credentials. The walk never
// takes them (Options.IncludeSecrets overrides): a secret in the graph ends
// up in graph.bin, in search results and in every agent's context. Patterns
// match the base name, with * and ? globs.
var DefaultSecretPatterns = []string{
	".env", ".env.*", "*.env",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.crt", "*.der",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	".netrc", ".pgpass", ".htpasswd", ".pypirc", ".npmrc", ".git-credentials",
	"credentials", "credentials.json", "credentials.yml", "credentials.yaml",
	"secrets.json", "secrets.yml", "secrets.yaml", "*.tfvars", "*.tfstate",
	"service-account*.json", "client_secret*.json",
}

// secretExamples are names the patterns catch but that hold no secret by
// convention (templates checked in on purpose).
var secretExamples = []string{".example", ".sample", ".template", ".dist"}

// IsSecret reports whether a path names a credentials file by
// DefaultSecretPatterns.
func IsSecret(rel string) bool {
	base := strings.ToLower(path.Base(filepath.ToSlash(rel)))
	for _, s := range secretExamples {
		if strings.HasSuffix(base, s) {
			return false
		}
	}
	for _, p := range DefaultSecretPatterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

// Admit says whether a walk of root with opt would take the file at rel
// (root-relative, forward slashes), and if not why: a skipped directory on
// the way, a skipped or hidden name, a secret, or a .gitignore rule. It is
// the walk's verdict for one file, for callers that add single files to
// the graph (view's auto-ingest) and must not take what a walk leaves out.
func Admit(root, rel string, opt Options) (ok bool, reason string) {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	segs := strings.Split(rel, "/")
	skipDirs := newSkipDirs(opt.SkipDirs)
	skipFiles := toSet(opt.SkipFiles, DefaultSkipFiles)
	w := &walker{opt: opt}
	for _, p := range opt.DotfilePatterns {
		p = strings.Trim(strings.TrimPrefix(strings.TrimSpace(p), "./"), "/")
		if p != "" {
			w.dotPatterns = append(w.dotPatterns, strings.Split(p, "/"))
		}
	}
	for i, s := range segs[:len(segs)-1] {
		if skipDirs.names[s] && skipDirs.skips(filepath.Join(root, filepath.FromSlash(strings.Join(segs[:i], "/"))), s) {
			return false, "it is under " + s + "/, a directory ingest skips"
		}
		if isHidden(s) {
			if admit, _ := w.hiddenDirAllowed(strings.Join(segs[:i+1], "/")); !admit {
				return false, "it is under the hidden directory " + s + "/, which ingest skips"
			}
		}
	}
	name := segs[len(segs)-1]
	switch {
	case skipFiles[name]:
		return false, name + " is a file ingest skips"
	case IsSecret(rel) && !opt.IncludeSecrets:
		return false, name + " looks like a credentials file; ingest never indexes those"
	case isHidden(name) && !w.hiddenFileAllowed(rel):
		return false, name + " is a hidden file, which ingest skips"
	}
	if opt.NoGitignore {
		return true, ""
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return true, ""
	}
	repo := FindRepoRoot(abs)
	if repo == "" {
		return true, ""
	}
	prefix, ign := rootIgnores(repo, abs)
	dir, repoRel := abs, prefix
	for i, s := range segs {
		ign = ign.with(filepath.Join(dir, ".gitignore"), repoRel)
		repoRel = join(repoRel, s)
		last := i == len(segs)-1
		if ign.ignored(repoRel, !last) {
			t := &tracked{repoRoot: repo}
			if (last && !t.file(join(prefix, rel))) || (!last && !t.under(repoRel)) {
				return false, "a .gitignore rule excludes it"
			}
		}
		dir = filepath.Join(dir, s)
	}
	return true, ""
}
