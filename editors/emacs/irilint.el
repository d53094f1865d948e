;;; irilint.el --- irilint language server for Eglot  -*- lexical-binding: t; -*-

;; Keywords: languages, tools, unicode
;; Package-Requires: ((emacs "26.1") (eglot "1.9"))

;;; Commentary:

;; Registers `irilint server' (a language server for IRIs, RFC 3987, found in
;; documents) with Eglot, in `eglot-server-programs', for the major modes in
;; `irilint-eglot-modes'.  Diagnostics show through Flymake, and the quick
;; fixes through `eglot-code-actions' (M-x eglot-code-action-quickfix).
;;
;;   (require 'irilint)                  ; or (load "/path/to/irilint.el")
;;   (add-hook 'markdown-mode-hook #'eglot-ensure)
;;
;; The server command is, first found: `irilint-server-command'; the
;; environment variable IRILINT_SERVER_CMD (a JSON array of strings, or a
;; shell-like command line); ("irilint" "server").
;;
;; Eglot runs one server per buffer: in a mode listed here, irilint takes the
;; place of the server Eglot would otherwise start (pylsp in python-mode,
;; marksman in markdown-mode...).  Customize `irilint-eglot-modes' (then call
;; `irilint-eglot-register') to keep your language's own server.

;;; Code:

(require 'eglot)
(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defgroup irilint nil
  "The irilint language server (IRIs in documents)."
  :group 'tools
  :prefix "irilint-")

(defcustom irilint-server-command nil
  "Command (a list of strings) that starts the irilint language server.
nil means $IRILINT_SERVER_CMD if set, else (\"irilint\" \"server\")."
  :type '(choice (const :tag "Default" nil) (repeat string)))

(defcustom irilint-eglot-modes
  '((markdown-mode :language-id "markdown")
    (gfm-mode :language-id "markdown")
    (html-mode :language-id "html")
    (mhtml-mode :language-id "html")
    (nxml-mode :language-id "xml")
    (rst-mode :language-id "restructuredtext")
    (python-mode :language-id "python")
    (js-mode :language-id "javascript")
    (js-json-mode :language-id "json")
    (typescript-mode :language-id "typescript")
    (json-mode :language-id "json")
    (yaml-mode :language-id "yaml")
    (toml-mode :language-id "toml")
    (conf-toml-mode :language-id "toml")
    (ttl-mode :language-id "turtle")
    (n3-mode :language-id "turtle")
    ;; Last: markdown-mode, rst-mode and org-mode derive from text-mode.
    (text-mode :language-id "plaintext"))
  "Major modes (Eglot's MAJOR-MODE specs) whose buffers irilint checks.
The language ids are the LSP ones; the server picks its scanner by them."
  :type '(repeat sexp))

(defun irilint--env-command ()
  "The command in $IRILINT_SERVER_CMD, or nil."
  (let ((env (getenv "IRILINT_SERVER_CMD")))
    (when (and env (not (string-empty-p (string-trim env))))
      (if (string-prefix-p "[" (string-trim-left env))
          (let ((cmd (json-read-from-string env)))
            (append cmd nil))
        (split-string-and-unquote env)))))

(defun irilint-command ()
  "The command that starts the irilint language server, a list of strings."
  (or irilint-server-command
      (irilint--env-command)
      (list "irilint" "server")))

(defun irilint-eglot-contact (&optional _interactive)
  "Eglot CONTACT function: the irilint server command, read when it starts."
  (irilint-command))

(defun irilint--entry-p (entry)
  (eq (cdr-safe entry) #'irilint-eglot-contact))

(defun irilint-eglot-register ()
  "Put irilint first in `eglot-server-programs' for `irilint-eglot-modes'.
Calling it again replaces the previous entry."
  (interactive)
  (irilint-eglot-unregister)
  (push (cons irilint-eglot-modes #'irilint-eglot-contact) eglot-server-programs))

(defun irilint-eglot-unregister ()
  "Remove irilint from `eglot-server-programs'."
  (interactive)
  (setq eglot-server-programs (cl-remove-if #'irilint--entry-p eglot-server-programs)))

(irilint-eglot-register)

(provide 'irilint)
;;; irilint.el ends here
