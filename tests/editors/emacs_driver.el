;;; emacs_driver.el --- drive Eglot through irilint's diagnostics and two quick fixes  -*- lexical-binding: t; -*-

;; Run by test_emacs.py in an interactive Emacs on a pseudo-terminal:
;;   emacs -nw -Q --eval <activate Debian's elpa> -l editors/emacs/irilint.el
;;         -l emacs_common.el -l this
;; Everything the client does, it does by itself from typed keys: M-x eglot
;; starts it, Flymake shows the diagnostics, M-x eglot-code-actions asks for
;; the action (answered by typing the start of its title, TAB, RET), Eglot
;; applies the edit and its idle timer sends didChange.

(require 'eglot)
(require 'emacs_common)

(defun irilint-test--lsp-diag (diag)
  (cdr (assoc 'eglot-lsp-diag (eglot--diag-data diag))))

(defun irilint-test--diags ()
  "Flymake's diagnostics from Eglot in the test buffer, as alists."
  (with-current-buffer irilint-test--buffer
    (cl-loop for d in (flymake-diagnostics)
             for spec = (irilint-test--lsp-diag d)
             when spec
             collect (let ((beg (flymake-diagnostic-beg d))
                           (end (flymake-diagnostic-end d)))
                       `((line . ,(1- (line-number-at-pos beg t)))
                         ;; Emacs columns: characters (code points) from the line start.
                         (col . ,(save-excursion (goto-char beg) (- beg (line-beginning-position))))
                         (end_col . ,(save-excursion (goto-char end) (- end (line-beginning-position))))
                         (beg . ,beg)
                         (end . ,end)
                         (text . ,(flymake-diagnostic-text d))
                         (code . ,(plist-get spec :code))
                         (source . ,(plist-get spec :source))
                         (lsp_range . ,(plist-get spec :range)))))))

;; Only counts (the handler runs unchanged), so that a step can wait for the
;; server's answer to an edit rather than for the old diagnostics' overlays
;; to vanish with the text they covered.
(advice-add 'eglot-handle-notification :after
            (lambda (_server method &rest _)
              (when (eq method 'textDocument/publishDiagnostics)
                (cl-incf irilint-test--publishes))))

(defun irilint-test--code-action (diag-code keys)
  "Select DIAG-CODE's characters, M-x eglot-code-actions, type KEYS at its prompt.
Without a region Eglot 1.9 asks about the sexp at point, which in some
modes (rst-mode) stops before a `%': a user selects the characters."
  (let ((diag (irilint-test--find diag-code)))
    (irilint-test-goto (cdr (assq 'beg diag)))
    (irilint-test-answer "Pick an action" keys)
    (irilint-test-type (concat "C-SPC "
                               (mapconcat #'identity
                                          (make-list (- (cdr (assq 'end diag)) (cdr (assq 'beg diag))) "C-f")
                                          " ")
                               " M-x eglot-code-actions RET"))))

(irilint-test-put 'eglot_file (locate-library "eglot"))
(irilint-test-open)
(let ((contact (eglot--guess-contact)))
  (irilint-test-put 'contact (format "%S" (nth 3 contact)))
  (irilint-test-put 'language_id (nth 4 contact)))

(add-hook 'irilint-test--finish-hook
          (lambda ()
            (unless (irilint-test-get 'ok)
              (let ((server (with-current-buffer irilint-test--buffer (eglot-current-server))))
                (when server
                  (irilint-test-put 'events_tail
                                    (with-current-buffer (jsonrpc-events-buffer server)
                                      (buffer-substring-no-properties
                                       (max (point-min) (- (point-max) 6000)) (point-max)))))))
            (ignore-errors
              (let ((server (with-current-buffer irilint-test--buffer (eglot-current-server))))
                (when server (eglot-shutdown server nil 3))))))

(irilint-test-run
 (append
  (list
   (list "start" #'always
         (lambda () (irilint-test-type "M-x eglot RET")))
   (list "managed" (lambda () (and (eglot-current-server) eglot--managed-mode))
         (lambda ()
           (irilint-test-put 'server_command
                             (process-command (jsonrpc--process (eglot-current-server)))))))
  (irilint-test-two-fixes)))
;;; emacs_driver.el ends here
