"""rulebook.html's inline style sheet and script: the system's fonts, a layout readable from
360 px wide up, print CSS (no controls, no page break inside a card), and the card appendix's
search box and card-type filter (without script every card shows). The page's
Content-Security-Policy admits the script by its hash.
"""

STYLE = """
:root{--ink:#212121;--accent:#5d4037;--muted:#616161;--line:#d7ccc8;--paper:#fffdf8;color-scheme:light}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--paper);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,
"DejaVu Sans","Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
.page{max-width:52rem;margin:0 auto;padding:1rem}
header{text-align:center;padding:1.5rem 0 1rem;border-bottom:2px solid var(--line)}
h1,h2,h3{font-family:Georgia,"DejaVu Serif","Times New Roman",serif;color:var(--accent);line-height:1.2}
h1{font-size:2.2rem;margin:.2rem 0}
h2{font-size:1.7rem;margin:2rem 0 .6rem;padding-top:.4rem;border-top:1px solid var(--line)}
h3{font-size:1.3rem;margin:1.4rem 0 .4rem}
h4{font-size:1.05rem;margin:0 0 .3rem}
h5{font-size:1rem;margin:1rem 0 .3rem}
.tagline{font-size:1.1rem;margin:.2rem 0}.meta{color:var(--muted);margin:.2rem 0}
a{color:#1a4f8b}a.term{color:inherit;text-decoration:underline dotted #8d6e63;text-underline-offset:2px}
nav#contents ol{padding-left:1.2rem}nav#contents li{margin:.15rem 0}nav#contents ol ol{font-size:.95rem}
.icon{width:1.15em;height:1.15em;vertical-align:-.22em;display:inline-block}
.icon-text{font-weight:700}
.badged{white-space:nowrap}.badge{font-size:.7em;font-weight:700;vertical-align:-.1em;margin-left:-.15em}
.table{overflow-x:auto;margin:.6rem 0;max-width:100%}
table{border-collapse:collapse;font-size:.92rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#efebe9}
dl.glossary dt{font-weight:700;margin-top:.6rem}dl.glossary dd{margin:0 0 0 1rem}
ul.legend{list-style:none;padding:0;columns:16rem}ul.legend li{margin:.2rem 0;break-inside:avoid}
.finder{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center;padding:.6rem;background:#efebe9;
border-radius:.4rem;margin:.6rem 0}
.finder input,.finder select{font:inherit;padding:.3rem .4rem;min-width:0;max-width:100%}
.finder input{flex:1 1 10rem}
.finder output{color:var(--muted);font-size:.9rem;flex-basis:100%}
article.card{display:flex;flex-wrap:wrap;gap:.8rem;padding:.8rem 0;border-bottom:1px solid var(--line)}
article.card h4{flex-basis:100%}
.qty{color:var(--muted);font-weight:400}
.faces{display:flex;gap:.4rem;flex-wrap:wrap}
.faces img,.shared-back img{width:150px;max-width:100%;height:auto;border-radius:4px;box-shadow:0 1px 3px #0004}
.entry{flex:1 1 14rem;min-width:0}
ul.facts{list-style:none;padding:0;margin:0 0 .3rem}ul.facts li{display:inline;margin-right:.8rem}
p.text{margin:.2rem 0}
.shared-back{margin:.4rem 0}.shared-back figcaption{color:var(--muted);font-size:.9rem}
.note{font-style:italic}
.odds table{font-size:.85rem}.odds th,.odds td{padding:.2rem .35rem}
.odds td,.odds thead th{white-space:nowrap;text-align:right}.odds tbody th{font-weight:400}
figure.composition{margin:.4rem 0 1rem}
section.components .faces{display:flex;flex-wrap:wrap;gap:.8rem}section.components figure{margin:0;width:9rem}
section.components img{width:100%;height:auto}
figure.anatomy-figure{margin:.6rem 0 1.2rem}figure.anatomy-figure img{max-width:100%;height:auto}
figure.anatomy-figure ol{margin:.2rem 0 0;font-size:.9rem}
.bar{display:flex;height:1.4rem;border-radius:3px;overflow:hidden;margin:.3rem 0}
.bar span{display:block;height:100%}
.key{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.9rem}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-.1em;margin-right:.3em}
@media (min-width:40rem){.faces img,.shared-back img{width:180px}.finder{position:sticky;top:0;z-index:1}}
@media print{
body{background:#fff;font-size:10.5pt}.page{max-width:none;padding:0}
.finder,nav#contents{display:none}
a{color:inherit;text-decoration:none}
h2{break-before:page;border-top:0}main>h2:first-child,section.icons>h2{break-before:auto}
.bar span,.swatch,th{-webkit-print-color-adjust:exact;print-color-adjust:exact}
h2,h3,h4{break-after:avoid}
article.card,tr,.shared-back,figure{break-inside:avoid}
.faces img,.shared-back img{width:38mm;box-shadow:none;border:0.2mm solid #999}
.table{overflow:visible}
}
"""

SCRIPT = """
(function(){
var form=document.querySelector('.finder');if(!form)return;form.hidden=false;
var q=document.getElementById('q'),t=document.getElementById('type'),o=document.getElementById('shown');
var cards=[].slice.call(document.querySelectorAll('article.card')),types=[].slice.call(document.querySelectorAll('section.type'));
function run(){var words=q.value.toLowerCase().split(/\\s+/).filter(Boolean),kind=t.value,n=0;
cards.forEach(function(c){var ok=(!kind||c.dataset.type===kind)&&words.every(function(w){return c.dataset.search.indexOf(w)>=0});
c.hidden=!ok;if(ok)n++;});
types.forEach(function(s){s.hidden=!s.querySelector('article.card:not([hidden])');});
o.textContent=n+(n===1?' card':' cards')+' shown';}
form.addEventListener('submit',function(e){e.preventDefault();});
q.addEventListener('input',run);t.addEventListener('change',run);run();
})();
"""
