;;; emacs_driver.el --- drive Eglot through irilint's diagnostics and quick fix  -*- lexical-binding: t; -*-

;; Run by test_emacs.py as
;;   emacs --batch -Q -l <eglot from Debian's elpa> -l editors/emacs/irilint.el -l this
;; Environment: IRILINT_TEST_FILE, IRILINT_TEST_OUT, IRILINT_TEST_WAIT (s).
;; Batch Emacs has no command loop, so nothing idle runs by itself: the driver
;; runs post-command-hook, accepts process output in bounded loops and sends
;; didChange itself, as the idle timer would.

(require 'cl-lib)
(require 'json)
(require 'eglot)

(defvar irilint-test--result nil "Alist written to IRILINT_TEST_OUT.")
(defvar irilint-test--wait (string-to-number (or (getenv "IRILINT_TEST_WAIT") "30")))

(defun irilint-test--put (key value)
  (setq irilint-test--result (cons (cons key value) (assq-delete-all key irilint-test--result))))

(defun irilint-test--step (name)
  (irilint-test--put 'steps (append (cdr (assq 'steps irilint-test--result)) (list name))))

(defun irilint-test--write ()
  (let ((coding-system-for-write 'utf-8)
        (json-encoding-pretty-print nil))
    (with-temp-file (getenv "IRILINT_TEST_OUT")
      (insert (json-encode irilint-test--result)))))

(defun irilint-test--poll (pred seconds)
  "Run process output, timers and post-command-hook until PRED or SECONDS."
  (let ((deadline (+ (float-time) seconds))
        (done nil))
    (while (and (not (setq done (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (run-hooks 'post-command-hook))
    done))

(defun irilint-test--lsp-diag (diag)
  (cdr (assoc 'eglot-lsp-diag (eglot--diag-data diag))))

(defun irilint-test--diags ()
  "Flymake's diagnostics from Eglot in the current buffer, as alists."
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
                       (lsp_range . ,(plist-get spec :range))))))

(defun irilint-test--find (code)
  (cl-find-if (lambda (d) (equal (cdr (assq 'code d)) code)) (irilint-test--diags)))

(defun irilint-test--main ()
  (irilint-test--put 'emacs_version emacs-version)
  (irilint-test--put 'eglot_file (locate-library "eglot"))
  (find-file (getenv "IRILINT_TEST_FILE"))
  (irilint-test--put 'major_mode (symbol-name major-mode))
  (irilint-test--step "opened")
  (let ((contact (eglot--guess-contact)))
    (irilint-test--put 'contact (format "%S" (nth 3 contact)))
    (irilint-test--put 'language_id (nth 4 contact))
    ;; Connect synchronously, bounded by eglot-sync-connect seconds.
    (let ((eglot-sync-connect irilint-test--wait))
      (apply #'eglot contact)))
  (unless (irilint-test--poll (lambda () (and (eglot-current-server) eglot--managed-mode))
                              irilint-test--wait)
    (error "Eglot did not start managing the buffer within %ss" irilint-test--wait))
  (irilint-test--put 'server_command (process-command (jsonrpc--process (eglot-current-server))))
  (irilint-test--put 'flymake_backends (format "%S" flymake-diagnostic-functions))
  (irilint-test--step "managed")
  ;; Flymake starts after the command that enabled it: run that hook.
  (run-hooks 'post-command-hook)
  (flymake-start)
  (let ((got (irilint-test--poll (lambda () (and (irilint-test--find "IRI401") (irilint-test--find "IRI101")))
                                 irilint-test--wait)))
    (irilint-test--put 'diagnostics (irilint-test--diags))
    (unless got
      (error "IRI401 and IRI101 did not both reach Flymake within %ss" irilint-test--wait)))
  (irilint-test--step "diagnostics")

  ;; The quick fix, as a user gets it: point on the diagnostic,
  ;; M-x eglot-code-actions, accept the default (the preferred action).
  (let* ((diag (irilint-test--find "IRI401"))
         (beg (cdr (assq 'beg diag)))
         (end (cdr (assq 'end diag))))
    (goto-char beg)
    (let ((actions (eglot-code-actions beg end)))
      (irilint-test--put 'actions
                         (mapcar (lambda (a) `((title . ,(plist-get a :title))
                                               (kind . ,(plist-get a :kind))
                                               (isPreferred . ,(eq (plist-get a :isPreferred) t))
                                               (has_edit . ,(and (plist-get a :edit) t))))
                                 actions)))
    (irilint-test--step "code actions")
    (let ((last-nonmenu-event ?\r)      ; not a mouse event: prompt in the minibuffer
          (prompts nil))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (prompt collection &optional _pred _req _init _hist default &rest _)
                   (push `((prompt . ,prompt)
                           (candidates . ,(mapcar #'car collection))
                           (default . ,default))
                         prompts)
                   default))
                ((symbol-function 'y-or-n-p)
                 (lambda (prompt) (error "Unexpected question: %s" prompt))))
        (eglot-code-actions beg end nil t))
      (irilint-test--put 'prompts prompts)))
  (irilint-test--put 'line_after_fix
                     (save-excursion
                       (goto-char (point-min))
                       (forward-line (cdr (assq 'line (irilint-test--find "IRI101"))))
                       (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
  (irilint-test--put 'modified (and (buffer-modified-p) t))
  (irilint-test--step "applied")
  ;; What the idle timer would do after the edit.
  (eglot--signal-textDocument/didChange)
  (let ((cleared (irilint-test--poll (lambda () (and (not (irilint-test--find "IRI401"))
                                                     (irilint-test--find "IRI101")))
                                     irilint-test--wait)))
    (irilint-test--put 'diagnostics_after_fix (irilint-test--diags))
    (unless cleared
      (error "After the fix IRI401 did not go away (with IRI101 still there) within %ss"
             irilint-test--wait)))
  (irilint-test--step "cleared")
  (irilint-test--put 'ok t))

(condition-case err
    (irilint-test--main)
  (error (irilint-test--put 'error (format "%S" err))))
(unless (cdr (assq 'ok irilint-test--result))
 (ignore-errors
  (let ((server (eglot-current-server)))
    (irilint-test--put 'events_tail
                       (with-current-buffer (jsonrpc-events-buffer server)
                         (buffer-substring-no-properties (max (point-min) (- (point-max) 6000))
                                                         (point-max)))))))
(irilint-test--write)
(ignore-errors
  (let ((server (eglot-current-server)))
    (when server (eglot-shutdown server nil 3))))
(set-buffer-modified-p nil)
(kill-emacs 0)
;;; emacs_driver.el ends here
