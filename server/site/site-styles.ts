/** The demo docs site's stylesheet (inline in each page: one request less, and the site has no build step). */
export const siteStyles = `
:root{--accent:#6d28d9;--bg:#fff;--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--soft:#f6f7f9;--code:#f3f4f6;
--font:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
--docent-accent:#6d28d9}
@media (prefers-color-scheme:dark){:root{--accent:#a78bfa;--bg:#0d1117;--fg:#e6e8eb;--muted:#9aa4b2;--line:#262c36;--soft:#151b23;--code:#161b22;--docent-accent:#a78bfa}}
:root[data-theme=light]{--accent:#6d28d9;--bg:#fff;--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--soft:#f6f7f9;--code:#f3f4f6;--docent-accent:#6d28d9;color-scheme:light}
:root[data-theme=dark]{--accent:#a78bfa;--bg:#0d1117;--fg:#e6e8eb;--muted:#9aa4b2;--line:#262c36;--soft:#151b23;--code:#161b22;--docent-accent:#a78bfa;color-scheme:dark}
*{box-sizing:border-box}
html{scroll-padding-top:72px}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.65 var(--font);-webkit-font-smoothing:antialiased}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:12px;top:12px;z-index:10;background:var(--bg);padding:8px}
.topbar{position:sticky;top:0;z-index:5;display:flex;align-items:center;gap:16px;height:60px;padding:0 24px;border-bottom:1px solid var(--line);background:color-mix(in srgb,var(--bg) 88%,transparent);backdrop-filter:blur(8px)}
.brand{display:flex;white-space:nowrap;align-items:center;gap:10px;font-weight:700;font-size:17px;color:var(--fg);text-decoration:none}
.mark{display:grid;place-items:center;width:28px;height:28px;border-radius:8px;background:var(--accent);color:var(--bg);font-size:15px}
.ask{margin-left:auto;display:flex;align-items:center;gap:8px;min-width:min(340px,50vw);padding:7px 8px 7px 12px;border:1px solid var(--line);border-radius:10px;background:var(--soft);color:var(--muted);font:inherit;font-size:14px;cursor:pointer;text-align:left}
.ask span{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ask:hover{border-color:var(--accent)}
.ask svg{width:16px;height:16px;fill:none;stroke:var(--accent);stroke-width:2}
.ask kbd{font:12px var(--font);padding:1px 6px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;gap:40px;max-width:1320px;margin:0 auto;padding:0 24px}
.sidebar{position:sticky;top:60px;align-self:start;max-height:calc(100vh - 60px);overflow-y:auto;padding:24px 0 48px;font-size:14px}
.sidebar summary{cursor:pointer;font-weight:600}
@supports selector(::details-content){@media (min-width:761px){.sidebar summary{display:none}.sidebar details::details-content{content-visibility:visible;block-size:auto}}}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar .tab{margin:18px 0 6px;font-weight:700;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:var(--fg)}
.sidebar .nav-tab:first-of-type .tab{margin-top:0}
.sidebar .group{margin:14px 0 4px;font-weight:600;color:var(--fg)}
.sidebar .nav-group .nav-group{padding-left:10px;border-left:1px solid var(--line)}
.sidebar .nav-group .nav-group .group{margin-top:8px;font-weight:500;color:var(--muted)}
.sidebar a{display:block;padding:4px 10px;margin-left:-10px;border-radius:7px;color:var(--muted);text-decoration:none}
.sidebar a:hover{color:var(--fg);background:var(--soft)}
.sidebar a[aria-current=page]{color:var(--accent);background:color-mix(in srgb,var(--accent) 10%,transparent);font-weight:600}
main{min-width:0;padding:36px 0 80px}
article{max-width:760px}
.crumbs{margin:0 0 6px;font-size:13px;font-weight:600;color:var(--accent)}
h1{margin:0 0 8px;font-size:34px;line-height:1.2;letter-spacing:-.02em}
.lead{margin:0 0 28px;font-size:18px;color:var(--muted)}
.prose h2{margin:40px 0 12px;font-size:23px;letter-spacing:-.01em}
.prose h3{margin:28px 0 8px;font-size:18px}
.prose h2,.prose h3,.prose h4{position:relative}
.anchor{position:absolute;left:-20px;color:var(--muted);text-decoration:none;opacity:0}
.prose :is(h2,h3,h4):hover .anchor{opacity:1}
.prose code{font:14px var(--mono);padding:2px 5px;border-radius:5px;background:var(--code)}
.prose pre{padding:14px 16px;border:1px solid var(--line);border-radius:10px;background:var(--code);overflow-x:auto;line-height:1.5}
.prose pre code{padding:0;background:none;font-size:13.5px}
.prose table{display:block;overflow-x:auto;border-collapse:collapse;font-size:14px;margin:16px 0}
.prose th,.prose td{padding:8px 12px;border:1px solid var(--line);text-align:left;vertical-align:top}
.prose th{background:var(--soft)}
.prose blockquote{margin:16px 0;padding:2px 16px;border-left:3px solid var(--accent);background:var(--soft);border-radius:0 8px 8px 0}
.prose img{max-width:100%}
.pager{display:flex;justify-content:space-between;gap:16px;margin-top:56px}
.pager a{flex:1;max-width:48%;padding:12px 16px;border:1px solid var(--line);border-radius:10px;text-decoration:none;color:var(--fg);font-weight:600}
.pager a:hover{border-color:var(--accent)}
.pager .next{text-align:right}
.pager small{display:block;font-weight:400;color:var(--muted);font-size:12.5px}
.meta{margin-top:24px;font-size:13px}.meta a{color:var(--muted)}
.toc{position:sticky;top:60px;align-self:start;padding:36px 0;font-size:13px}
.toc p{margin:0 0 8px;font-weight:600}
.toc ul{list-style:none;margin:0;padding:0}
.toc a{display:block;padding:3px 0;color:var(--muted);text-decoration:none}
.toc a:hover{color:var(--fg)}
@media (max-width:1100px){.layout{grid-template-columns:240px minmax(0,1fr)}.toc{display:none}}
@media (max-width:760px){
.layout{display:block;padding:0 16px}
.topbar{padding:0 16px;gap:10px}
.ask{min-width:0}.ask kbd{display:none}
.sidebar{position:static;max-height:none;padding:12px 0;border-bottom:1px solid var(--line)}
h1{font-size:28px}
}
`
