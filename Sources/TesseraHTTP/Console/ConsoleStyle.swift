/// The console's style sheet (`/console/assets/console.css`): system fonts, readable at phone and desktop widths,
/// visible focus, colours with enough contrast, and the warning colours of certificates near expiry.
enum ConsoleStyle {
    static let css = #"""
        *,*::before,*::after{box-sizing:border-box}
        html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;font-size:100%;color:#1b1b1f;background:#f5f5f7}
        body{margin:0;line-height:1.45}
        a{color:#0b4fb3}a:hover{text-decoration-thickness:2px}
        :focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
        .skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
        .skip:focus{left:.5rem;top:.5rem}
        .visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        .top{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1.25rem;background:#1b1b1f;color:#fff}
        .top a{color:#fff}.brand{margin:0;font-weight:700}.brand a{text-decoration:none}
        .top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
        .top nav a{text-decoration:none;padding:.25rem 0;border-bottom:2px solid transparent}
        .top nav a[aria-current=page]{border-bottom-color:#fff;font-weight:600}
        .who{margin-left:auto;display:flex;align-items:center;gap:.75rem}
        main{max-width:72rem;margin:0 auto;padding:1.25rem}
        h1{font-size:1.6rem;margin:.25rem 0 1rem}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:1rem 0 .25rem}
        .muted{color:#52525b}
        button,.button{font:inherit;border-radius:.4rem;border:1px solid #0b57d0;background:#0b57d0;color:#fff;
          padding:.45rem .9rem;cursor:pointer;text-decoration:none;display:inline-block}
        button.secondary,.button.secondary{background:#fff;color:#0b4fb3}
        .top button.secondary{background:transparent;color:#fff;border-color:#fff}
        button.danger{background:#b3261e;border-color:#b3261e}
        button[disabled]{opacity:.6;cursor:not-allowed}
        label{display:block;font-weight:600;margin:.5rem 0 .2rem}
        input,select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #71717a;border-radius:.35rem;background:#fff;
          color:#1b1b1f;width:100%;max-width:28rem}
        input[type=checkbox],input[type=radio]{width:auto}
        fieldset{border:1px solid #d4d4d8;border-radius:.5rem;margin:.75rem 0;padding:.5rem 1rem 1rem}
        legend{font-weight:600;padding:0 .25rem}
        .form-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.25rem 1rem;align-items:end}
        .actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.75rem 0}
        .card{background:#fff;border:1px solid #e4e4e7;border-radius:.6rem;padding:1rem;margin:0 0 1rem}
        .card>h2:first-child,.card>form>h2:first-child{margin-top:0}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:1rem}
        .previews{display:flex;flex-wrap:wrap;gap:.75rem;margin:.5rem 0}
        .previews img{width:160px;height:auto;border-radius:.5rem;background:#e4e4e7}
        .pass-preview img{width:min(320px,100%)}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}
        dl.facts dt{font-weight:600;color:#3f3f46}dl.facts dd{margin:0;overflow-wrap:anywhere}
        .table-wrap{overflow-x:auto}
        table{border-collapse:collapse;width:100%;background:#fff}
        th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e4e4e7;vertical-align:top;overflow-wrap:anywhere}
        th{background:#f4f4f5;font-weight:600}
        .badge{display:inline-block;border-radius:1rem;padding:.05rem .6rem;font-size:.85rem;background:#e4e4e7;color:#1b1b1f}
        .ok{background:#dcfce7;color:#14532d}.warn{background:#fff4ce;color:#5c3c00}.critical{background:#fde7e9;color:#8a1c1c}
        .problem{background:#fde7e9;color:#8a1c1c;border-radius:.4rem;padding:.5rem .75rem}
        .notice{background:#e8f0fe;color:#0b3d91;border-radius:.4rem;padding:.5rem .75rem}
        .secret{font-family:ui-monospace,"DejaVu Sans Mono",monospace;background:#f4f4f5;padding:.5rem;border-radius:.35rem;
          overflow-wrap:anywhere;display:block}
        progress{width:100%;max-width:28rem;height:1rem}
        .chart svg{width:100%;height:auto;max-width:60rem;background:#fff;border:1px solid #e4e4e7;border-radius:.5rem}
        .chart .installs{fill:#0b57d0}.chart .removals{fill:#b3261e}.chart .active{stroke:#14532d;fill:none;stroke-width:2}
        .chart text{font-size:11px;fill:#3f3f46}.chart line{stroke:#d4d4d8}
        .legend{display:flex;gap:1rem;flex-wrap:wrap;list-style:none;padding:0;margin:.5rem 0}
        .swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:.2rem;margin-right:.3rem;vertical-align:middle}
        .swatch.installs{background:#0b57d0}.swatch.removals{background:#b3261e}.swatch.active{background:#14532d}
        .qr svg{width:10rem;height:auto;background:#fff;padding:.4rem}
        .signin{max-width:26rem;margin:2rem auto}
        label.inline{display:inline;font-weight:400;margin:0 0 0 .4rem}
        [hidden]{display:none!important}
        @media (max-width:40rem){.top{padding:.6rem .8rem}.who{margin-left:0;width:100%;justify-content:space-between}
          main{padding:.8rem}dl.facts{grid-template-columns:1fr}h1{font-size:1.35rem}}
        """#
}
