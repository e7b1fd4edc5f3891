// Labelled evaluation corpus: realistic sessions (code, logs, prose, Chinese, Japanese, Korean)
// with distractors, and queries each naming the message that answers it.

interface EvalMessage {
  /** Label of a message some query must find. */
  key?: string;
  role: "user" | "assistant";
  text: string;
  tool?: { name: string; input: Record<string, unknown>; output: string };
}

export interface EvalSession {
  id: string;
  title: string;
  messages: EvalMessage[];
}

export type QueryKind = "identifier" | "inner-word" | "path" | "error" | "case" | "prose" | "zh" | "ja" | "ko" | "project";

export interface EvalQuery {
  query: string;
  kind: QueryKind;
  /** Session searched (scope session), or the caller session for project scope. */
  session: string;
  /** Key(s) of the messages that answer it (state the fact sought); the first one ranked counts. */
  answer: string | string[];
  scope?: "project";
  literal?: boolean;
}

const u = (text: string, key?: string): EvalMessage => (key ? { key, role: "user", text } : { role: "user", text });
const a = (text: string, key?: string): EvalMessage => (key ? { key, role: "assistant", text } : { role: "assistant", text });
const t = (name: string, input: Record<string, unknown>, output: string, key?: string): EvalMessage => {
  const message: EvalMessage = { role: "assistant", text: `Running ${name}.`, tool: { name, input, output } };
  if (key) message.key = key;
  return message;
};

/** Everyday chatter shared by all sessions: the distractors. */
export const DISTRACTORS: string[] = [
  "Let me look at the build configuration first and then run the tests again.",
  "The tests pass locally but the CI job failed on the lint step; I will check the config.",
  "I refactored the helper functions and renamed a few variables for clarity.",
  "Please check the README for the setup steps before we continue.",
  "Can you total the numbers in the summary table and round them to two decimals?",
  "The error message was not very helpful, so I added more context to the log line.",
  "We should add a unit test for the edge case where the list is empty.",
  "I updated the dependencies and the lock file; nothing else changed.",
  "The key point is that the cache must be invalidated when the user changes settings.",
  "Looking at the stack trace, the failure happens during startup, not during the request.",
  "I think the timeout is too short for the slow network in the staging environment.",
  "Let me search the code base for other places that call this function.",
  "The payment page looks fine now; the layout bug was in the CSS grid.",
  "Item order in the line chart legend is reversed; I will fix it later.",
  "The sandbox environment is down for maintenance until tomorrow.",
  "I ran the formatter on the whole project; the diff is large but mechanical.",
  "The database migration took about two minutes on the staging copy.",
  "Rate of errors went down after the deploy, but latency went up slightly.",
  "We can keep the old endpoint for a month and log a deprecation warning.",
  "Retry logic should back off exponentially, otherwise we hammer the server.",
  "我们先看看配置文件，然后再运行测试。",
  "这个函数的名字不太好，我改成了更清楚的名字。",
  "テストはローカルでは通りますが、CIでは失敗します。",
  "設定ファイルを確認してから、もう一度実行してください。",
  "테스트는 로컬에서 통과했지만 CI에서 실패했습니다.",
  "설정 파일을 먼저 확인해 주세요.",
];

export const SESSIONS: EvalSession[] = [
  {
    id: "ses_billing",
    title: "Invoice totals and payment sandbox",
    messages: [
      u("The invoice totals are wrong when a discount applies to a single line. Can you find where totals are computed?"),
      t(
        "grep",
        { pattern: "Totals", path: "src" },
        "src/billing/invoice-math.ts:12: export function computeLineItemTotals(items: LineItem[]): Totals {\nsrc/billing/invoice-math.ts:40: export function computeInvoiceTotals(invoice: Invoice): Totals {",
        "grep-totals",
      ),
      a(
        "The per-line math lives in computeLineItemTotals in src/billing/invoice-math.ts. The discount is applied after tax there, which is the bug.",
        "explain-line-totals",
      ),
      u("Fix it so the discount is applied before tax, and keep computeInvoiceTotals unchanged."),
      t(
        "edit",
        {
          filePath: "src/billing/invoice-math.ts",
          oldString: "const taxed = net * (1 + rate)",
          newString: "const discounted = net - discount; const taxed = discounted * (1 + rate)",
        },
        "Edit applied successfully.",
        "edit-invoice-math",
      ),
      a("Done: discount now comes before tax in computeLineItemTotals. I also added a test in test/billing/invoice-math.test.ts.", "done-discount"),
      u("Now the e2e suite fails with 401 from the payment provider."),
      t(
        "bash",
        { command: "npm run e2e -- payment" },
        "FAIL e2e/payment.spec.ts\n  ● checkout › pays with card\n    Error: Request failed with status code 401\n    at PaymentClient.charge (src/payment/client.ts:88)\n    PAYMENT_SANDBOX_KEY is not set",
        "e2e-401",
      ),
      a(
        "The e2e run needs PAYMENT_SANDBOX_KEY in the environment; CI has it as a secret but your shell does not. Export it from .env.sandbox before running.",
        "sandbox-key",
      ),
      u("Where do we read the currency rounding mode?"),
      a(
        "Rounding is configured by ROUNDING_MODE in config/billing.yaml and read by loadBillingConfig() in src/billing/config.ts; the default is HALF_EVEN (banker's rounding).",
        "rounding-mode",
      ),
      u("Why did we pick banker's rounding?"),
      a(
        "We picked banker's rounding because finance reconciles monthly sums and half-up rounding drifted by a few cents per thousand invoices. Decision recorded in docs/adr/0007-rounding.md.",
        "adr-rounding",
      ),
      u("Add a VAT exemption flag for EU B2B customers with a valid VAT id."),
      a(
        "Added isVatExempt(customer) in src/billing/vat.ts: it returns true for EU business customers whose VIES check passed; computeInvoiceTotals skips tax for them.",
        "vat-exempt",
      ),
      t(
        "bash",
        { command: "npx vitest run test/billing" },
        " ✓ test/billing/invoice-math.test.ts (12 tests)\n ✓ test/billing/vat.test.ts (4 tests)\n Test Files  2 passed (2)",
        "tests-pass",
      ),
      u("Generate the credit note PDF with the same header as invoices."),
      a("The credit note renderer renderCreditNotePdf() reuses InvoiceHeader from src/pdf/header.tsx; the number series is CN-YYYY-NNNN.", "credit-note"),
    ],
  },
  {
    id: "ses_infra",
    title: "Gateway rate limiter and pod restarts",
    messages: [
      u("The gateway returns 429 for everyone after the deploy. Check the rate limiter."),
      t("read", { filePath: "services/gateway/src/rateLimiter.ts" }, "export class TokenBucketLimiter { ... }", "read-limiter"),
      a(
        "The TokenBucketLimiter refills per process, but the deploy moved to 8 replicas sharing one Redis key, so each replica drains the shared bucket. I switched the bucket key to include the route and made the refill atomic with a Lua script.",
        "fix-limiter",
      ),
      u("Pods keep restarting in the worker deployment."),
      t(
        "bash",
        { command: "kubectl describe pod worker-7c9f6d-x2x4k" },
        "State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137\nLimits: memory: 512Mi",
        "oomkilled",
      ),
      a("The worker is OOMKilled at the 512Mi limit while decoding large images. Raising the limit to 1Gi and streaming the decode fixes it.", "oom-fix"),
      u("Also the upstream sometimes fails with ECONNRESET."),
      t(
        "bash",
        { command: "grep -c ECONNRESET logs/gateway.log" },
        "Error: read ECONNRESET\n    at TLSWrap.onStreamRead (node:internal/stream_base_commons:217:20)\n 42 occurrences between 02:00 and 02:15",
        "econnreset-log",
      ),
      a(
        "ECONNRESET comes from the upstream load balancer closing idle keep-alive sockets after 60s while our agent keeps them for 120s. Set keepAliveTimeout to 55s in services/gateway/src/http/agent.ts.",
        "keepalive",
      ),
      u("nginx shows 502 Bad Gateway for /api/reports.", "nginx-502-question"),
      t(
        "bash",
        { command: "tail -n 3 /var/log/nginx/error.log" },
        '2025/01/03 10:12:01 [error] 31#31: *1182 upstream prematurely closed connection while reading response header from upstream, client: 10.0.3.7, server: api, request: "GET /api/reports HTTP/1.1"',
        "nginx-502",
      ),
      a(
        "The reports endpoint takes longer than proxy_read_timeout (30s) for big tenants; raised it to 120s in deploy/nginx/api.conf and added pagination to the report query.",
        "proxy-timeout",
      ),
      u("What is the on-call escalation policy now?"),
      a(
        "Escalation: page the primary after 5 minutes of a sev-1 alert, the secondary after 15, and the engineering manager after 30. It is defined in ops/pagerduty/escalation.yaml.",
        "escalation",
      ),
      u("Rotate the TLS certificates before they expire on Friday."),
      t(
        "bash",
        { command: "certbot renew --cert-name api.example.com" },
        "Congratulations, all renewals succeeded:\n  /etc/letsencrypt/live/api.example.com/fullchain.pem (success)",
        "cert-renew",
      ),
      a("Certificates renewed; the expiry is now in 90 days. I added a Prometheus alert cert_expiry_days < 14.", "cert-alert"),
    ],
  },
  {
    id: "ses_shop_zh",
    title: "电商推荐与支付",
    messages: [
      u("用户想买无线耳机，预算五百元以内，推荐页应该怎么排序？", "zh-earphones"),
      a("推荐页先按销量排序，再用评分加权；无线耳机类目里把降噪型号放在前面。", "zh-ranking"),
      u("购物车在结算时偶尔会清空，怎么回事？"),
      a("购物车清空是因为会话过期后重新登录，本地缓存没有合并到服务端。已经在登录回调里合并购物车数据。", "zh-cart"),
      u("支付失败时要给用户什么提示？"),
      a("支付失败时提示“支付未完成，请检查银行卡余额或更换支付方式”，并保留订单三十分钟。", "zh-payment-fail"),
      u("双十一期间数据库压力很大，有什么办法？"),
      a("双十一前把商品详情做成静态缓存，库存扣减改成队列异步处理，并且给热点商品单独分库。", "zh-double11"),
      u("退货流程需要几天？"),
      a("退货审核一般一到两个工作日，退款会在审核通过后三天内原路返回。", "zh-refund"),
      u("物流跟踪接口超时怎么办？"),
      a("物流跟踪接口超时后改为异步轮询，前端显示“物流信息更新中”。", "zh-logistics"),
    ],
  },
  {
    id: "ses_nlp_ja",
    title: "形態素解析パイプライン",
    messages: [
      u("日本語の検索で形態素解析を使うべきですか？", "ja-morph-question"),
      a("形態素解析を使うと語の境界が正確になりますが、辞書にない新語に弱いです。バイグラムと併用するのが安全です。", "ja-morph-answer"),
      u("トークナイザの辞書はどれを使っていますか？"),
      a("トークナイザはMeCabでIPA辞書を使っています。固有名詞はユーザー辞書に追加しました。", "ja-dictionary"),
      u("カタカナの長音記号の揺れはどう扱いますか？"),
      a("「サーバー」と「サーバ」のような長音の揺れは正規化で語末の長音符を削除して統一します。", "ja-chouon"),
      u("全角英数字は検索できますか？"),
      a("全角英数字は半角に変換してからインデックスに入れるので、ＡＰＩでもAPIでも検索できます。", "ja-fullwidth"),
      u("ひらがなだけのクエリが遅いです。"),
      a("ひらがなだけのクエリは候補が多すぎるので、二文字以上を必須にして、頻出語はスキップしました。", "ja-hiragana"),
    ],
  },
  {
    id: "ses_pay_ko",
    title: "결제 모듈 오류",
    messages: [
      u("결제할 때 카드가 거절되었다는 오류가 자주 나요.", "ko-card-declined"),
      a("카드가 거절되는 주요 원인은 한도 초과와 해외 결제 차단입니다. 오류 코드별로 안내 문구를 나눴습니다.", "ko-declined-causes"),
      u("환불 처리는 얼마나 걸리나요?"),
      a("환불은 승인 취소 후 영업일 기준 삼일에서 오일 정도 걸립니다.", "ko-refund"),
      u("간편결제 연동은 어떻게 하나요?"),
      a("간편결제는 카카오페이와 네이버페이 SDK를 사용하고, 결제 완료 콜백에서 주문 상태를 갱신합니다.", "ko-easypay"),
      u("영수증 이메일이 발송되지 않아요."),
      a("영수증 이메일은 메일 서버 인증서 문제로 실패했습니다. SMTP 설정을 수정하고 재발송했습니다.", "ko-receipt"),
    ],
  },
  {
    id: "ses_frontend",
    title: "Dashboard charts and accessibility",
    messages: [
      u("The revenue chart flickers on every websocket update."),
      a(
        "RevenueChart re-mounts because its key is Date.now(); I memoized the series with useMemo and used a stable key, so it only redraws changed points.",
        "chart-flicker",
      ),
      u("Screen readers skip the filter buttons."),
      a("The filter chips were divs with click handlers; I turned them into buttons with aria-pressed and visible focus rings.", "a11y-buttons"),
      t(
        "bash",
        { command: "npx playwright test dashboard.spec.ts" },
        "1) dashboard.spec.ts:41 › exports CSV\n   TimeoutError: locator.click: Timeout 30000ms exceeded.\n   waiting for getByRole('button', { name: 'Export CSV' })",
        "playwright-timeout",
      ),
      a(
        "The Export CSV button is rendered inside a lazy tab; the test must open the Reports tab first. Fixed dashboard.spec.ts accordingly.",
        "export-csv-fix",
      ),
      u("Dark mode colors look washed out in the heatmap."),
      a(
        "The heatmap used opacity on top of a dark background; switched to a perceptual color scale (viridis) via d3-scale-chromatic in src/ui/charts/Heatmap.tsx.",
        "heatmap-colors",
      ),
      u("Which date library do we use for the range picker?"),
      a("We use date-fns (not moment) for the DateRangePicker; formatting goes through formatRange() in src/ui/date/format.ts.", "date-fns"),
    ],
  },
];

export const QUERIES: EvalQuery[] = [
  // identifiers, whole
  { kind: "identifier", session: "ses_billing", query: "computeLineItemTotals", answer: ["explain-line-totals", "grep-totals"] },
  { kind: "identifier", session: "ses_billing", query: "computeInvoiceTotals", answer: "grep-totals" },
  { kind: "identifier", session: "ses_billing", query: "PAYMENT_SANDBOX_KEY", answer: "sandbox-key" },
  { kind: "identifier", session: "ses_billing", query: "loadBillingConfig", answer: "rounding-mode" },
  { kind: "identifier", session: "ses_billing", query: "isVatExempt", answer: "vat-exempt" },
  { kind: "identifier", session: "ses_billing", query: "renderCreditNotePdf", answer: "credit-note" },
  { kind: "identifier", session: "ses_infra", query: "TokenBucketLimiter", answer: "fix-limiter" },
  { kind: "identifier", session: "ses_infra", query: "keepAliveTimeout", answer: "keepalive" },
  { kind: "identifier", session: "ses_infra", query: "proxy_read_timeout", answer: "proxy-timeout" },
  { kind: "identifier", session: "ses_infra", query: "cert_expiry_days", answer: "cert-alert" },
  { kind: "identifier", session: "ses_frontend", query: "RevenueChart", answer: "chart-flicker" },
  { kind: "identifier", session: "ses_frontend", query: "formatRange", answer: "date-fns" },
  { kind: "identifier", session: "ses_frontend", query: "aria-pressed", answer: "a11y-buttons" },
  // inner words of identifiers
  { kind: "inner-word", session: "ses_billing", query: "line item totals", answer: ["explain-line-totals", "grep-totals"] },
  { kind: "inner-word", session: "ses_billing", query: "LineItem", answer: ["explain-line-totals", "grep-totals"] },
  { kind: "inner-word", session: "ses_billing", query: "sandbox key", answer: "sandbox-key" },
  { kind: "inner-word", session: "ses_billing", query: "vat exempt", answer: "vat-exempt" },
  { kind: "inner-word", session: "ses_billing", query: "credit note pdf", answer: "credit-note" },
  { kind: "inner-word", session: "ses_infra", query: "token bucket", answer: "fix-limiter" },
  { kind: "inner-word", session: "ses_infra", query: "keep alive timeout", answer: "keepalive" },
  { kind: "inner-word", session: "ses_infra", query: "cert expiry", answer: "cert-alert" },
  { kind: "inner-word", session: "ses_frontend", query: "revenue chart memoized", answer: "chart-flicker" },
  { kind: "inner-word", session: "ses_frontend", query: "date range picker", answer: "date-fns" },
  { kind: "inner-word", session: "ses_billing", query: "billing config", answer: "rounding-mode" },
  // paths and file names
  { kind: "path", session: "ses_billing", query: "src/billing/invoice-math.ts", answer: ["explain-line-totals", "grep-totals", "edit-invoice-math"] },
  { kind: "path", session: "ses_billing", query: "invoice-math.ts", answer: ["explain-line-totals", "grep-totals", "edit-invoice-math"] },
  { kind: "path", session: "ses_billing", query: "docs/adr/0007-rounding.md", answer: "adr-rounding" },
  { kind: "path", session: "ses_billing", query: "vat.ts", answer: "vat-exempt" },
  { kind: "path", session: "ses_infra", query: "services/gateway/src/http/agent.ts", answer: "keepalive" },
  { kind: "path", session: "ses_infra", query: "deploy/nginx/api.conf", answer: "proxy-timeout" },
  { kind: "path", session: "ses_infra", query: "escalation.yaml", answer: "escalation" },
  { kind: "path", session: "ses_frontend", query: "Heatmap.tsx", answer: "heatmap-colors" },
  { kind: "path", session: "ses_frontend", query: "src/ui/date/format.ts", answer: "date-fns" },
  { kind: "path", session: "ses_billing", query: "header.tsx", answer: "credit-note" },
  // error strings
  { kind: "error", session: "ses_billing", query: "Request failed with status code 401", answer: "e2e-401" },
  { kind: "error", session: "ses_infra", query: "OOMKilled", answer: ["oomkilled", "oom-fix"] },
  { kind: "error", session: "ses_infra", query: "Exit Code: 137", answer: "oomkilled" },
  { kind: "error", session: "ses_infra", query: "read ECONNRESET", answer: "econnreset-log" },
  { kind: "error", session: "ses_infra", query: "upstream prematurely closed connection", answer: "nginx-502" },
  { kind: "error", session: "ses_frontend", query: "TimeoutError: locator.click: Timeout 30000ms exceeded", answer: "playwright-timeout" },
  { kind: "error", session: "ses_infra", query: "502 Bad Gateway", answer: "nginx-502-question" },
  { kind: "error", session: "ses_billing", query: "PaymentClient.charge", answer: "e2e-401" },
  { kind: "error", session: "ses_infra", query: "ECONNRESET", answer: "econnreset-log", literal: true },
  { kind: "error", session: "ses_billing", query: "CN-YYYY-NNNN", answer: "credit-note", literal: true },
  // wrong letter case
  { kind: "case", session: "ses_billing", query: "computelineitemtotals", answer: ["explain-line-totals", "grep-totals"] },
  { kind: "case", session: "ses_billing", query: "payment_sandbox_key", answer: "sandbox-key" },
  { kind: "case", session: "ses_infra", query: "tokenbucketlimiter", answer: "fix-limiter" },
  { kind: "case", session: "ses_infra", query: "oomkilled", answer: ["oomkilled", "oom-fix"] },
  { kind: "case", session: "ses_infra", query: "KEEPALIVETIMEOUT", answer: "keepalive" },
  { kind: "case", session: "ses_frontend", query: "REVENUECHART", answer: "chart-flicker" },
  { kind: "case", session: "ses_billing", query: "ROUNDING_MODE config", answer: "rounding-mode" },
  { kind: "case", session: "ses_infra", query: "econnreset", answer: ["econnreset-log", "keepalive"] },
  // prose keywords and decisions
  { kind: "prose", session: "ses_billing", query: "why banker's rounding", answer: ["adr-rounding", "rounding-mode"] },
  { kind: "prose", session: "ses_billing", query: "discount before tax done", answer: ["done-discount", "edit-invoice-math"] },
  { kind: "prose", session: "ses_billing", query: "finance reconciles monthly sums", answer: "adr-rounding" },
  { kind: "prose", session: "ses_infra", query: "replicas sharing one redis key", answer: "fix-limiter" },
  { kind: "prose", session: "ses_infra", query: "streaming the image decode", answer: "oom-fix" },
  { kind: "prose", session: "ses_infra", query: "page the secondary after 15 minutes", answer: "escalation" },
  { kind: "prose", session: "ses_infra", query: "idle sockets load balancer", answer: "keepalive" },
  { kind: "prose", session: "ses_frontend", query: "perceptual color scale", answer: "heatmap-colors" },
  { kind: "prose", session: "ses_frontend", query: "open the reports tab first", answer: "export-csv-fix" },
  { kind: "prose", session: "ses_frontend", query: "visible focus rings", answer: "a11y-buttons" },
  { kind: "prose", session: "ses_infra", query: "certificates renewed 90 days", answer: "cert-alert" },
  // Chinese
  { kind: "zh", session: "ses_shop_zh", query: "耳机", answer: "zh-earphones" },
  { kind: "zh", session: "ses_shop_zh", query: "无线耳机预算", answer: "zh-earphones" },
  { kind: "zh", session: "ses_shop_zh", query: "购物车清空", answer: "zh-cart" },
  { kind: "zh", session: "ses_shop_zh", query: "支付失败 保留订单", answer: "zh-payment-fail" },
  { kind: "zh", session: "ses_shop_zh", query: "双十一 静态缓存", answer: "zh-double11" },
  { kind: "zh", session: "ses_shop_zh", query: "退款", answer: "zh-refund" },
  { kind: "zh", session: "ses_shop_zh", query: "物流 异步轮询", answer: "zh-logistics" },
  { kind: "zh", session: "ses_shop_zh", query: "降噪", answer: "zh-ranking" },
  // Japanese
  { kind: "ja", session: "ses_nlp_ja", query: "解析", answer: "ja-morph-question" },
  { kind: "ja", session: "ses_nlp_ja", query: "形態素解析 新語", answer: "ja-morph-answer" },
  { kind: "ja", session: "ses_nlp_ja", query: "IPA辞書", answer: "ja-dictionary" },
  { kind: "ja", session: "ses_nlp_ja", query: "長音", answer: "ja-chouon" },
  { kind: "ja", session: "ses_nlp_ja", query: "サーバー", answer: "ja-chouon" },
  { kind: "ja", session: "ses_nlp_ja", query: "全角英数字 半角に変換", answer: "ja-fullwidth" },
  { kind: "ja", session: "ses_nlp_ja", query: "ひらがな 頻出語", answer: "ja-hiragana" },
  { kind: "ja", session: "ses_nlp_ja", query: "api 半角", answer: "ja-fullwidth" },
  // Korean
  { kind: "ko", session: "ses_pay_ko", query: "카드", answer: "ko-card-declined" },
  { kind: "ko", session: "ses_pay_ko", query: "거절 원인", answer: "ko-declined-causes" },
  { kind: "ko", session: "ses_pay_ko", query: "환불 영업일", answer: "ko-refund" },
  { kind: "ko", session: "ses_pay_ko", query: "간편결제 SDK", answer: "ko-easypay" },
  { kind: "ko", session: "ses_pay_ko", query: "영수증 SMTP", answer: "ko-receipt" },
  { kind: "ko", session: "ses_pay_ko", query: "카카오페이", answer: "ko-easypay" },
  // answers in another session (project scope, asked from ses_frontend or ses_billing)
  { kind: "project", session: "ses_frontend", scope: "project", query: "rate limiter redis", answer: "fix-limiter" },
  { kind: "project", session: "ses_frontend", scope: "project", query: "computeLineItemTotals", answer: ["explain-line-totals", "grep-totals"] },
  { kind: "project", session: "ses_billing", scope: "project", query: "OOMKilled worker", answer: "oom-fix" },
  { kind: "project", session: "ses_billing", scope: "project", query: "无线耳机", answer: "zh-earphones" },
  { kind: "project", session: "ses_billing", scope: "project", query: "형태소 카드가 거절", answer: "ko-card-declined" },
  { kind: "project", session: "ses_infra", scope: "project", query: "形態素解析", answer: "ja-morph-question" },
  { kind: "project", session: "ses_infra", scope: "project", query: "banker's rounding decision", answer: "adr-rounding" },
  { kind: "project", session: "ses_billing", scope: "project", query: "Export CSV playwright timeout", answer: "playwright-timeout" },
];
