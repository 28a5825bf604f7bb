/// Two or three command lines for each command, which its `--help` ends with ("Examples:"). Each
/// starts `autograph NAME`, NAME the command's own (a test runs every command's `--help` and checks).
enum CommandExamples {
    static let byCommand: [String: [String]] = [
        "info": ["autograph info contract.pdf", "autograph info locked.pdf --password secret --json"],
        "fields": ["autograph fields form.pdf", "autograph fields form.pdf --json > fields.json"],
        "fill": [
            "autograph fill form.pdf --values values.json -o filled.pdf",
            "autograph fill form.pdf --values values.xfdf --flatten -o flat.pdf",
        ],
        "export-values": [
            "autograph export-values filled.pdf", "autograph export-values filled.pdf --xfdf -o values.xfdf",
        ],
        "sign": [
            "autograph sign contract.pdf -o signed.pdf --p12 me.p12 --p12-password-file pw.txt",
            "autograph sign contract.pdf -o signed.pdf --p12 me.p12 --p12-password-file pw.txt "
                + "--page 1 --rect 350,50,550,130 --reason Approved --location Basel",
            "autograph sign contract.pdf -o signed.pdf --p12 me.p12 --p12-password-file pw.txt "
                + "--level B-T --tsa http://tsa.example.com",
        ],
        "prepare": [
            "autograph prepare contract.pdf -o prepared.pdf --state state.json --cert me.pem --field Signature1",
            "autograph prepare contract.pdf -o prepared.pdf --state state.json --page 1 --rect 350,50,550,130",
        ],
        "embed": [
            "autograph embed prepared.pdf --state state.json --cms signature.p7s -o signed.pdf",
            "autograph embed prepared.pdf --state state.json --cms signature.pem -o signed.pdf",
        ],
        "watermark": [
            "autograph watermark contract.pdf -o copy.pdf --title COPY",
            "autograph watermark contract.pdf -o draft.pdf --title DRAFT --no-date --opacity 0.2",
        ],
        "refuse": [
            "autograph refuse contract.pdf -o refused.pdf --title REFUSED --p12 me.p12 --p12-password-file pw.txt",
            "autograph refuse contract.pdf -o refused.pdf --title ABGELEHNT --key me.key.pem --cert me.pem",
        ],
        "biometrics": [
            "autograph biometrics signed.pdf --key biometrics.key.pem",
            "autograph biometrics signed.pdf --key biometrics.key.pem --cert biometrics.pem --field Signature1",
        ],
        "photo": [
            "autograph photo form.pdf -o with-photo.pdf --field Photo --image portrait.jpg",
            "autograph photo form.pdf -o with-photo.pdf --field Photo --image scan.png --max-width 600 --max-height 800",
        ],
        "ink": [
            "autograph ink contract.pdf -o noted.pdf --page 2 --strokes strokes.json",
            "autograph ink contract.pdf -o noted.pdf --page 1 --strokes strokes.json --width 3 --color #D91A1A",
        ],
        "render": [
            "autograph render contract.pdf -o page1.png",
            "autograph render contract.pdf -o page.png --pages 2-4 --dpi 150",
            "autograph render signed.pdf -o as-signed.png --revision 0",
        ],
        "thumbnails": [
            "autograph thumbnails contract.pdf -o thumbs", "autograph thumbnails contract.pdf -o thumbs --size 120",
        ],
        "rewrite": [
            "autograph rewrite damaged.pdf -o repaired.pdf",
            "autograph rewrite locked.pdf -o open.pdf --password secret --decrypt",
        ],
        "metadata": [
            "autograph metadata report.pdf -o titled.pdf --set Title=Report --set Author='Ada Lovelace'",
            "autograph metadata report.pdf -o untitled.pdf --set Title=",
        ],
        "sample": ["autograph sample -o sample.pdf", "autograph sample -o sample.pdf --xref-stream"],
        "text": [
            "autograph text paper.pdf | grep difficult", "autograph text paper.pdf --page 2 --layout",
            "autograph text paper.pdf --json --page 1",
        ],
        "search": ["autograph search paper.pdf 'signature'", "autograph search paper.pdf résumé --whole-word --json"],
        "verify": [
            "autograph verify signed.pdf --trust root.pem",
            "autograph verify signed.pdf --trust root.pem --revocation online --json",
            "autograph verify signed.pdf --diff changes",
        ],
        "timestamp": [
            "autograph timestamp signed.pdf -o stamped.pdf --tsa http://tsa.example.com",
            "autograph timestamp signed.pdf -o stamped.pdf --tsa https://tsa.example.com --tsa-token-file token.txt",
        ],
        "extend": [
            "autograph extend signed.pdf -o long-term.pdf",
            "autograph extend signed.pdf -o archived.pdf --tsa http://tsa.example.com",
        ],
        "pkcs11": [
            "autograph pkcs11 list --module /usr/lib/softhsm/libsofthsm2.so",
            "autograph pkcs11 list --module /usr/lib/softhsm/libsofthsm2.so --token Seal --pin-file pin.txt --json",
        ],
        "csc": [
            "autograph csc credentials --csc https://csc.example.com/csc/v2 --csc-token-file token.txt",
            "autograph csc credentials --csc https://csc.example.com/csc/v1 --csc-client-id app --csc-secret-file secret.txt --json",
        ],
        "demo": ["autograph demo", "autograph demo --out /tmp/demo --name 'Grace Hopper'"],
        "session": [
            "autograph session list --store store.sqlite --user ada --storage-key-file key",
            "autograph session embed 3F2A… --cms signature.p7s -o signed.pdf --store store.sqlite --user ada",
        ],
        "serve": [
            "autograph serve", "autograph serve contract.pdf --store store --print-token-file token.txt",
            "autograph serve contract.pdf --embed-origin https://app.example.com --store store",
        ],
    ]
}
