package standin

import "html/template"

// The theme: trimmed-down PaperMod templates. Like PaperMod in production it
// writes <meta name="robots" content="index, follow"> on every page,
// "noindex, nofollow" when the page sets robotsNoIndex, and carries an
// inline script with "</head>" inside a JavaScript string.
const themeSource = `
{{- define "head" -}}
<!DOCTYPE html>
<html lang="{{ .Site.LanguageCode }}" dir="auto">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1, shrink-to-fit=no">
{{ if .NoIndex }}<meta name="robots" content="noindex, nofollow">{{ else }}<meta name="robots" content="index, follow">{{ end }}
<title>{{ if .IsHome }}{{ .Site.Title }}{{ else }}{{ .Title }} | {{ .Site.Title }}{{ end }}</title>
{{- with .Keywords }}
<meta name="keywords" content="{{ . }}">
{{- end }}
<meta name="description" content="{{ .Description }}">
<meta name="author" content="{{ .Site.Params.Author }}">
{{- with .Canonical }}
<link rel="canonical" href="{{ . }}">
{{- end }}
<link crossorigin="anonymous" href="/css/style.css" rel="preload stylesheet" as="style">
<link rel="icon" href="/images/logo.png">
<meta property="og:title" content="{{ .Title }}">
<meta property="og:description" content="{{ .Description }}">
<meta property="og:type" content="{{ if eq .Kind "page" }}article{{ else }}website{{ end }}">
{{- with .Canonical }}
<meta property="og:url" content="{{ . }}">
{{- end }}
<script>
  var themeFallback = '<link rel="stylesheet" href="/css/style.css"></head>';
  if (localStorage.getItem("pref-theme") === "dark") {
    document.documentElement.classList.add("dark");
  }
</script>
</head>
<body class="{{ if eq .Kind "page" }}single{{ else }}list{{ end }}" id="top">
<header class="header">
  <nav class="nav">
    <div class="logo"><a href="/" accesskey="h" title="{{ .Site.Title }} (Alt + H)"><img src="/images/logo.png" alt="" aria-label="logo" height="30">{{ .Site.Title }}</a></div>
    <ul id="menu">
      {{- range .Menu }}
      <li><a href="{{ .URL }}" title="{{ .Title }}"><span>{{ .Title }}</span></a></li>
      {{- end }}
    </ul>
  </nav>
</header>
<main class="main">
{{- end }}

{{- define "foot" }}
</main>
<footer class="footer">
  <span>&copy; {{ .Year }} <a href="/">{{ .Site.Title }}</a></span> &middot;
  <span>Powered by a stand-in for Hugo &amp; a PaperMod-like theme</span>
</footer>
<a href="#top" aria-label="go to top" title="Go to Top (Alt + G)" class="top-link" id="top-link" accesskey="g">&uarr;</a>
</body>
</html>
{{ end }}

{{- define "single" }}{{ template "head" . }}
<article class="post-single">
  <header class="post-header">
    <h1 class="post-title entry-hint-parent">{{ .Title }}</h1>
    {{- with .Description }}
    <div class="post-description">{{ . }}</div>
    {{- end }}
    <div class="post-meta">{{ with .Date }}<span title="{{ .Full }}">{{ .Short }}</span>{{ end }}</div>
  </header>
  <div class="post-content">{{ .Content }}</div>
  <footer class="post-footer">
    <ul class="post-tags">
      {{- range .Tags }}
      <li><a href="{{ .URL }}">{{ .Title }}</a></li>
      {{- end }}
    </ul>
  </footer>
</article>
{{ template "foot" . }}{{ end }}

{{- define "list" }}{{ template "head" . }}
<header class="page-header">
  <h1>{{ .Title }}</h1>
  {{- with .Content }}
  <div class="post-content">{{ . }}</div>
  {{- end }}
</header>
{{- range .Entries }}
<article class="post-entry">
  <header class="entry-header"><h2 class="entry-hint-parent">{{ .Title }}</h2></header>
  {{- with .Description }}
  <div class="entry-content"><p>{{ . }}</p></div>
  {{- end }}
  <footer class="entry-footer">{{ with .Date }}<span title="{{ .Full }}">{{ .Short }}</span>{{ end }}</footer>
  <a class="entry-link" aria-label="post link to {{ .Title }}" href="{{ .URL }}"></a>
</article>
{{- end }}
{{- with .Pager }}
<footer class="page-footer">
  <nav class="pagination">
    {{- with .Prev }}<a class="prev" href="{{ . }}">&laquo;&nbsp;Prev&nbsp;</a>{{ end }}
    {{- with .Next }}<a class="next" href="{{ . }}">Next&nbsp;&nbsp;&raquo;</a>{{ end }}
  </nav>
</footer>
{{- end }}
{{ template "foot" . }}{{ end }}

{{- define "terms" }}{{ template "head" . }}
<header class="page-header"><h1>{{ .Title }}</h1></header>
<ul class="terms-tags">
  {{- range .Terms }}
  <li><a href="{{ .URL }}">{{ .Title }} <sup><strong><sup>{{ .Count }}</sup></strong></sup></a></li>
  {{- end }}
</ul>
{{ template "foot" . }}{{ end }}

{{- define "404" }}{{ template "head" . }}
<div class="not-found">404</div>
<p>The page you are looking for does not exist. <a href="/">Back home</a>.</p>
{{ template "foot" . }}{{ end }}

{{- define "alias" -}}
<!DOCTYPE html><html lang="{{ .Lang }}"><head><title>{{ .Permalink }}</title><link rel="canonical" href="{{ .Permalink }}"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={{ .Permalink }}"></head></html>
{{- end }}

`

// parseTheme parses the templates; they are fixed, so an error is a bug.
func parseTheme() (*template.Template, error) {
	return template.New("theme").Parse(themeSource)
}
