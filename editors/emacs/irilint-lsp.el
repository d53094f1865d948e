;;; irilint-lsp.el --- irilint language server for lsp-mode  -*- lexical-binding: t; -*-

;; Keywords: languages, tools, unicode
;; Package-Requires: ((emacs "26.1") (lsp-mode "8.0.0"))

;;; Commentary:

;; Registers `irilint server' (a language server for IRIs, RFC 3987, found in
;; documents) as an lsp-mode client.  It is an add-on client: it runs beside
;; the language's own server (pylsp, marksman...), in the major modes of
;; `irilint-lsp-modes'.  Diagnostics show through Flycheck or Flymake, the
;; quick fixes through M-x lsp-execute-code-action.
;;
;;   (require 'irilint-lsp)        ; or (load "/path/to/irilint-lsp.el")
;;   (add-hook 'markdown-mode-hook #'lsp-deferred)
;;
;; lsp-mode counts columns in characters (code points) and does not say so
;; in `initialize' (no general.positionEncodings), so the server would
;; answer in UTF-16 and every column after a non-BMP character (an emoji)
;; would be off by one, and a quick fix there would corrupt the text.  This
;; client therefore asks for UTF-32 columns through initializationOptions
;; (`positionEncoding'), which irilint honours.
;;
;; The server command is, first found: `irilint-lsp-server-command'; the
;; environment variable IRILINT_SERVER_CMD (a JSON array of strings, or a
;; shell-like command line); ("irilint" "server").

;;; Code:

(require 'lsp-mode)
(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defgroup irilint-lsp nil
  "The irilint language server (IRIs in documents) in lsp-mode."
  :group 'lsp-mode
  :prefix "irilint-lsp-")

(defcustom irilint-lsp-server-command nil
  "Command (a list of strings) that starts the irilint language server.
nil means $IRILINT_SERVER_CMD if set, else (\"irilint\" \"server\")."
  :type '(choice (const :tag "Default" nil) (repeat string)))

(defcustom irilint-lsp-modes
  '(text-mode markdown-mode gfm-mode rst-mode html-mode mhtml-mode nxml-mode
    python-mode js-mode js-json-mode typescript-mode json-mode yaml-mode
    toml-mode conf-toml-mode ttl-mode n3-mode)
  "Major modes (and the modes derived from them) whose buffers irilint checks."
  :type '(repeat symbol))

(defcustom irilint-lsp-settings nil
  "irilint settings (a plist of the config file's keys) sent at start-up.
For example (:select [\"bidi\" \"lookalike\"]).  The project's config file
is the base; these override only the keys they set."
  :type '(plist))

(defconst irilint-lsp-language-ids
  '((gfm-mode . "markdown")
    (rst-mode . "restructuredtext")
    (js-json-mode . "json")
    (toml-mode . "toml")
    (conf-toml-mode . "toml")
    (ttl-mode . "turtle")
    (n3-mode . "turtle"))
  "LSP language ids for the modes lsp-mode does not know.
The server picks its scanner by the language id.")

(defun irilint-lsp--env-command ()
  "The command in $IRILINT_SERVER_CMD, or nil."
  (let ((env (getenv "IRILINT_SERVER_CMD")))
    (when (and env (not (string-empty-p (string-trim env))))
      (if (string-prefix-p "[" (string-trim-left env))
          (append (json-read-from-string env) nil)
        (split-string-and-unquote env)))))

(defun irilint-lsp-command ()
  "The command that starts the irilint language server, a list of strings."
  (or irilint-lsp-server-command
      (irilint-lsp--env-command)
      (list "irilint" "server")))

(defun irilint-lsp-initialization-options ()
  "initializationOptions: UTF-32 columns (what lsp-mode counts) and the settings."
  (append (list :positionEncoding "utf-32") irilint-lsp-settings))

(defun irilint-lsp--activate-p (_file-name mode)
  "Whether irilint checks a buffer in major MODE."
  (and (apply #'provided-mode-derived-p mode irilint-lsp-modes) t))

(dolist (entry irilint-lsp-language-ids)
  (unless (assq (car entry) lsp-language-id-configuration)
    (add-to-list 'lsp-language-id-configuration entry)))

(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection #'irilint-lsp-command)
  :activation-fn #'irilint-lsp--activate-p
  :initialization-options #'irilint-lsp-initialization-options
  :add-on? t
  :priority -1
  :server-id 'irilint))

(provide 'irilint-lsp)
;;; irilint-lsp.el ends here
